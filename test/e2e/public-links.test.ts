import { afterAll, expect, it, describe } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 26: links in answers name the address clients reach the platform at, never the answering
 * instance's listen address: `--public-url` when given; else, with `--trust-proxy`, what a trusted
 * proxy forwarded; a caller's own X-Forwarded-Host is ignored otherwise.
 */
const platforms: Platform[] = [];
afterAll(() => platforms.forEach((p) => p.cleanup()));

async function mindmapUrl(p: Platform, headers: Record<string, string> = {}): Promise<string> {
  const res = await p.fetch('/v2/mindmap', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: 'harbour lights and ferries' }),
  });
  const body = (await res.json()) as { data: { mindmap_url: string } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data.mindmap_url;
}

/** Every absolute http(s) URL in an answer, wherever it sits. */
function linksIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) linksIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) linksIn(v, out);
  return out;
}

const forwarded = { 'x-forwarded-host': 'public.example.test:8443', 'x-forwarded-proto': 'https' };

describe('links name the public address', () => {
  it('--public-url: answers, the OpenAPI server and the admin Link header name it', async () => {
    const p = await startPlatform({ args: ['--public-url', 'https://facet.example.test/platform/'] });
    platforms.push(p);
    const base = 'https://facet.example.test/platform';
    expect(await mindmapUrl(p)).toMatch(new RegExp(`^${base}/mindmap`));
    // A proxy's headers do not override the configured address.
    expect(await mindmapUrl(p, forwarded)).toMatch(new RegExp(`^${base}/`));
    const doc = (await (await p.fetch('/openapi.json')).json()) as { servers: Array<{ url: string }> };
    expect(doc.servers[0].url).toBe(base);
    // Every link in other kinds of answers: theme previews, a task and its artifacts, an uploaded
    // resource's download, a LiveDoc's page.
    const bearer = { authorization: `Bearer ${p.boot.api_key}` };
    const token = { authorization: `Bearer ${p.boot.access_token}` };
    const themes = await (await p.fetch('/v2/ppt-themes', { headers: bearer })).json();
    const task = JSON.parse(
      (
        await p.cli([
          'tasks',
          'create',
          '--kind',
          'illustration',
          '--prompt',
          'a lighthouse',
          '--size',
          '64x64',
          '--wait',
          '--json',
        ])
      ).stdout,
    ) as { id: string };
    const taskAnswer = await (await p.fetch(`/tasks/${task.id}`, { headers: token })).json();
    const treeAnswer = await p.fetch(`/tasks/${task.id}/artifact-files`, { headers: token });
    const tree = (await treeAnswer.json()) as Array<{ path: string; type: string }>;
    expect(treeAnswer.status, JSON.stringify(tree)).toBe(200);
    const firstFile = tree.find((n) => n.type === 'file')?.path;
    expect(firstFile, JSON.stringify(tree)).toBeTruthy();
    const content = await (
      await p.fetch(`/tasks/${task.id}/artifact-files/content?path=${encodeURIComponent(firstFile!)}`, {
        headers: token,
      })
    ).json();
    const ld = JSON.parse((await p.cli(['livedocs', 'create', 'Links', '--json'])).stdout).short_id as string;
    const note = JSON.parse(
      (
        await p.cli([
          'livedocs',
          'resources',
          'add-doc',
          ld,
          '--title',
          'Note',
          '--content',
          'The harbour light is green.',
          '--json',
        ])
      ).stdout,
    );
    const resources = await (await p.fetch(`/v2/livedocs/${ld}/resources`, { headers: bearer })).json();
    const links = linksIn([themes, taskAnswer, tree, content, note, resources]);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(link.startsWith(`${base}/`), link).toBe(true);
    // Two keys (the bootstrap one and this one), one a page: the next page's link.
    expect((await p.cli(['keys', 'create', '--name', 'second', '--json'])).exitCode).toBe(0);
    const page = await p.fetch('/admin/api-keys?limit=1', { headers: { 'x-api-key': p.boot.api_key! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('link')).toMatch(new RegExp(`^<${base}/admin/api-keys\\?`));
  });

  it('--trust-proxy: a trusted proxy’s forwarded host and scheme; without the headers, the listen address', async () => {
    const p = await startPlatform({ args: ['--trust-proxy', '127.0.0.1'] });
    platforms.push(p);
    expect(await mindmapUrl(p, forwarded)).toMatch(/^https:\/\/public\.example\.test:8443\/mindmap/);
    expect(await mindmapUrl(p)).toMatch(new RegExp(`^${p.url}/`));
    const doc = (await (await p.fetch('/openapi.json', { headers: forwarded })).json()) as {
      servers: Array<{ url: string }>;
    };
    expect(doc.servers[0].url).toBe('https://public.example.test:8443');
  });

  it('without --trust-proxy a caller’s X-Forwarded-Host is ignored', async () => {
    const p = await startPlatform();
    platforms.push(p);
    expect(await mindmapUrl(p, forwarded)).toMatch(new RegExp(`^${p.url}/`));
  });

  it('a malformed --public-url is a usage error', async () => {
    await expect(startPlatform({ args: ['--public-url', 'ftp://x.test/?a=1'] })).rejects.toThrow(
      /--public-url must be an http\(s\) URL/,
    );
  });
});
