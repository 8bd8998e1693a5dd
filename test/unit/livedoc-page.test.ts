import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { pageLink } from '../../src/server/auth/signed-links.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('pages of the local platform', () => {
  it("a LiveDoc's page lists its resources with working downloads; an altered, missing or expired link is a 403 page", async () => {
    let now = new Date();
    server = await startServer({ memory: true, port: 0, logLevel: 'silent', now: () => now });
    const h = { authorization: `Bearer ${server.bootstrap.data.api_key}`, 'content-type': 'application/json' };
    const doc = (
      await fetch(`${server.url}/v2/livedocs`, {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ name: 'Quarterly <review>' }),
      }).then((r) => r.json())
    ).data;
    const form = new FormData();
    form.append('file', new Blob(['# Notes\n\nRevenue grew 12% in Q3.\n'], { type: 'text/markdown' }), 'notes.md');
    const up = await fetch(`${server.url}/v2/livedocs/${doc.short_id}/resources/upload`, {
      method: 'POST',
      headers: { authorization: h.authorization },
      body: form,
    });
    expect(up.status).toBe(200);

    const url = pageLink(server.ctx, 'livedoc', doc.short_id, `/livedocs/${doc.short_id}`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Quarterly &lt;review&gt;');
    expect(html).toContain('Revenue grew 12% in Q3.');
    expect(html).not.toMatch(/<(link|script|img)[^>]+https?:\/\//);
    const download = /href="([^"]+\/files\/resources\/[^"]+)"/.exec(html)![1].replaceAll('&amp;', '&');
    const file = await fetch(download);
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('Revenue grew 12%');

    const u = new URL(url);
    const altered = new URL(url);
    altered.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 1));
    for (const bad of [altered.href, `${server.url}/livedocs/${doc.short_id}`, url.replace(doc.short_id, 'ld_other')]) {
      const r = await fetch(bad);
      expect(r.status).toBe(403);
      expect(await r.text()).toContain('Link not valid');
    }
    now = new Date(now.getTime() + 8 * 86_400_000);
    const late = await fetch(url);
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('expired');
  });

  it('the task endpoints answer an unknown task with a 404 in the v2 shape', async () => {
    server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
    const h = { authorization: `Bearer ${server.bootstrap.data.api_key}` };
    for (const [method, path] of [
      ['GET', 'status'],
      ['GET', 'historical'],
      ['POST', 'cancel'],
      ['POST', 'retry'],
    ]) {
      const r = await fetch(`${server.url}/v2/tasks/task_unknown/${path}`, { method, headers: h });
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({
        status: 'error',
        code: 'NOT_FOUND',
        message: 'task task_unknown not found',
      });
    }
  });
});

describe('readable snippets on the LiveDoc page', () => {
  it('drops Markdown marks: headings, table rules and pipes, emphasis, a heading that repeats the title', async () => {
    const { readableSnippet } = await import('../../src/server/pages/livedoc-page.js');
    expect(readableSnippet('# Notes\n\nRevenue grew **12%** in Q3.', 'Notes')).toBe('Revenue grew 12% in Q3.');
    expect(readableSnippet('| item | cost |\n|---|---|\n| dredging | 1.2M |', 'Budget')).toBe(
      'item · cost\ndredging · 1.2M',
    );
    expect(readableSnippet('## Ferries\n\n\n\nEvery forty minutes.', 'Timetable')).toBe(
      'Ferries\n\nEvery forty minutes.',
    );
  });
});
