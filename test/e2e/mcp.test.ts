import { Ajv } from 'ajv';
import { execa } from 'execa';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { servePages, type PageServer } from '../helpers/pages.js';
import { serveHttpsPages, type HttpsPages } from '../helpers/https-pages.js';
import { connect, makeUser, textOf, type Connected, type TransportKind } from '../helpers/mcp-clients.js';

/**
 * Issue 40: facet for agents. The MCP SDK's own Client drives both transports against `facet serve`:
 * `facet mcp` on stdio, and /mcp over Streamable HTTP. Every tool is called, and what an agent sees
 * on failure (isError with the platform's code) is checked, with the limits of the key it acts with.
 */
const TOOL_NAMES = [
  'web_extract',
  'web_scrape_batch',
  'livedocs_list',
  'livedocs_create',
  'livedocs_add_url',
  'livedocs_add_text',
  'livedocs_search',
  'livedocs_ask',
  'social_search',
  'social_user',
  'seo_backlinks',
  'financial_statements',
  'reviews_search',
  'slides_create',
  'landing_page_create',
  'mindmap_create',
  'image_task_create',
  'models_list',
  'usage_summary',
];

let p: Platform;
let pages: PageServer;
let tls: HttpsPages;

beforeAll(async () => {
  pages = await servePages({
    '/kettle': {
      body: '<html><head><title>Kettles</title></head><body><nav>Home | Shop</nav><article><h1>How a kettle works</h1><p>A kettle heats water with an element until the water boils at 100 degrees Celsius, then a bimetallic strip switches it off.</p><p>Descaling keeps the element efficient.</p></article></body></html>',
    },
  });
  tls = await serveHttpsPages(tempDir('mcp-tls'), { slowMs: 400 });
  p = await startPlatform({ env: { NODE_EXTRA_CA_CERTS: tls.caFile } });
}, 60_000);
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
  await tls?.close();
});

const call = (c: Connected, name: string, args: Record<string, unknown>) =>
  c.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const ok = (r: CallToolResult) => {
  expect(r.isError, r.isError ? textOf(r) : '').toBeFalsy();
  return r.structuredContent as any;
};

describe.each<TransportKind>(['stdio', 'http'])('MCP over %s', (kind) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connect(p, kind, p.boot.api_key);
  }, 30_000);
  afterAll(async () => c?.close());

  it('lists the 19 tools, each with a description and input and output schemas that are valid JSON Schema', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe('object');
      expect(() => ajv.compile(t.inputSchema), `${t.name} inputSchema`).not.toThrow();
      expect(t.outputSchema, `${t.name} outputSchema`).toBeDefined();
      expect(() => ajv.compile(t.outputSchema!), `${t.name} outputSchema`).not.toThrow();
    }
    // The arguments an agent fills in are explained.
    const extract = tools.find((t) => t.name === 'web_extract')!;
    expect((extract.inputSchema.properties as any).main_content_only).toMatchObject({ type: 'boolean', default: true });
    expect((extract.inputSchema.properties as any).format.description).toMatch(/form/);
    if (kind === 'stdio')
      expect(c.stderr()).toMatch(/facet mcp: serving http:\/\/127\.0\.0\.1:\d+ \(profile \w+\) on stdio/);
  });

  it('calls every tool against facet serve', async () => {
    const page = ok(await call(c, 'web_extract', { url: `${pages.url}/kettle` }));
    expect(page).toMatchObject({ title: 'Kettles', format: 'markdown' });
    expect(page.content).toMatch(/boils at 100 degrees/);
    expect(page.content).not.toMatch(/Home \| Shop/);

    const batch = ok(await call(c, 'web_scrape_batch', { urls: [`${tls.url}/page/1`, `${tls.url}/page/2`] }));
    expect(batch).toMatchObject({ status: 'completed', total: 2, succeeded: 2, failed: 0 });
    expect(batch.pages[0].markdown.length).toBeGreaterThan(20);

    const doc = ok(await call(c, 'livedocs_create', { name: `Kettles ${kind}`, description: 'how kettles work' }));
    expect(doc.uri).toBe(`facet://livedocs/${doc.id}`);
    const added = ok(await call(c, 'livedocs_add_url', { livedoc_id: doc.id, urls: [`${pages.url}/kettle`] }));
    expect(added.results[0]).toMatchObject({ status: 'success' });
    const note = ok(
      await call(c, 'livedocs_add_text', {
        livedoc_id: doc.id,
        title: 'Descaling',
        content: 'Descale a kettle every month with citric acid when the water is hard.',
      }),
    );
    expect(note.uri).toBe(`facet://livedocs/${doc.id}/resources/${note.resource_id}`);
    const listed = ok(await call(c, 'livedocs_list', { keyword: `Kettles ${kind}` }));
    expect(listed.items.map((d: any) => d.id)).toEqual([doc.id]);
    const found = ok(await call(c, 'livedocs_search', { livedoc_id: doc.id, query: 'descale citric acid' }));
    expect(found.passages[0].text).toMatch(/citric acid/);
    expect(found.passages[0].source).toMatchObject({ resource_id: note.resource_id, title: 'Descaling' });
    const answer = ok(
      await call(c, 'livedocs_ask', {
        livedoc_id: doc.id,
        question: 'At what temperature does water boil in a kettle?',
      }),
    );
    expect(answer.answer).toMatch(/100 degrees/);
    expect(answer.answer).toMatch(/\[1\]/);
    expect(answer.citations[0]).toMatchObject({ n: 1, link: `${pages.url}/kettle` });

    const posts = ok(await call(c, 'social_search', { query: 'coffee', limit: 2 }));
    expect(posts.posts).toHaveLength(2);
    expect(posts.credits_cost).toBe(2);
    const author = posts.posts[0].author.username;
    expect(ok(await call(c, 'social_user', { username: `@${author}` }))).toMatchObject({
      found: true,
      user: { username: author },
    });

    const links = ok(await call(c, 'seo_backlinks', { target: 'example.com', limit: 3 }));
    expect(links.items).toHaveLength(3);
    expect(links.total_count).toBeGreaterThan(3);
    const income = ok(await call(c, 'financial_statements', { ticker: 'AAPL', limit: 2 }));
    expect(income.income_statements).toHaveLength(2);
    expect(income.income_statements[0]).toMatchObject({ ticker: 'AAPL', period: 'annual' });
    const reviews = ok(await call(c, 'reviews_search', { domain: 'example.com', depth: 3 }));
    expect(reviews.reviews).toHaveLength(3);
    expect(reviews.domain).toBe('example.com');

    const lp = ok(await call(c, 'landing_page_create', { query: 'Kettle care', livedoc_id: doc.id }));
    expect(lp).toMatchObject({ status: 'COMPLETED', credits_cost: 10 });
    const html = await fetch(lp.page_url);
    expect(html.status).toBe(200);
    expect(await html.text()).toMatch(/<html/i);

    const map = (await call(c, 'mindmap_create', { query: 'kettles', livedoc_id: doc.id })) as CallToolResult;
    expect(ok(map)).toMatchObject({ livedoc_id: doc.id });
    const picture = map.content.find((x) => x.type === 'image') as { data: string; mimeType: string };
    expect(picture.mimeType).toBe('image/png');
    expect(Buffer.from(picture.data, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const img = (await call(c, 'image_task_create', { prompt: 'a copper kettle', count: 2 })) as CallToolResult;
    expect(ok(img)).toMatchObject({ status: 'succeeded' });
    const pngs = img.content.filter((x) => x.type === 'image') as Array<{ data: string }>;
    expect(pngs).toHaveLength(2);
    for (const png of pngs) expect(Buffer.from(png.data, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const models = ok(await call(c, 'models_list', { kind: 'chat' }));
    expect(models.models.map((m: any) => m.id)).toContain('facet-agent');
    const usage = ok(await call(c, 'usage_summary', {}));
    expect(usage.user.id).toBe(p.boot.user_id);
    expect(usage.recent_charges[0]).toMatchObject({ delta: -10, reason: 'landing_page' });
    // livedocs_ask's answer was written by a model call, metered under this key.
    expect(usage.model_usage.this_key.calls).toBeGreaterThanOrEqual(1);
    expect(usage.model_usage.by_model.map((m: any) => m.model)).toContain('facet-grounded');
    expect(usage.model_usage.all_keys.calls).toBeGreaterThanOrEqual(usage.model_usage.this_key.calls);
  }, 120_000);

  it('reports progress while a deck is written, and gives its link', async () => {
    const doc = ok(await call(c, 'livedocs_create', { name: `Deck sources ${kind}` }));
    ok(
      await call(c, 'livedocs_add_text', {
        livedoc_id: doc.id,
        title: 'Boiling',
        content:
          '# Boiling water\n\nA kettle heats water to 100 degrees Celsius.\n\n## Safety\n\nA kettle switches itself off when the water boils.\n\n## Care\n\nDescale it every month.',
      }),
    );
    const seen: Array<{ progress: number; message?: string }> = [];
    const deck = ok(
      (await c.client.callTool(
        { name: 'slides_create', arguments: { query: 'How kettles boil water', livedoc_id: doc.id } },
        undefined,
        {
          onprogress: (n) => seen.push(n),
          timeout: 90_000,
        },
      )) as CallToolResult,
    );
    expect(deck.status).toBe('COMPLETED');
    expect((await fetch(deck.deck_url)).status).toBe(200);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0].message).toMatch(/^deck task task_\w+ started$/);
    // Every report names the task and its state. The last one (COMPLETED) is not asserted: the SDK's
    // client handles a notification a microtask later than the response that follows it, so when
    // both arrive in one read the response has already removed the call's progress handler.
    for (const s of seen.slice(1))
      expect(s.message).toMatch(new RegExp(`^deck task ${deck.task_id}: [A-Z_]+ after \\d+ s$`));
    const steps = seen.map((s) => s.progress);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
  }, 100_000);

  it('a platform error is an isError result with its code: 404, 402, 429; bad arguments name the field', async () => {
    const missing = await call(c, 'livedocs_search', { livedoc_id: 'ld_nosuchdoc', query: 'kettle' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^LIVEDOC_NOT_FOUND \(HTTP 404\): /);
    expect(textOf(missing)).toMatch(/request_id: req_/);

    const bad = await call(c, 'livedocs_search', { livedoc_id: 'x', top_k: 'many' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/query/);
    expect(textOf(bad)).toMatch(/top_k/);

    const poor = await makeUser(p, `poor-${kind}`, { credits: 5 });
    const pc = await connect(p, kind, poor.key);
    try {
      const r402 = await call(pc, 'social_search', { query: 'coffee' });
      expect(r402.isError).toBe(true);
      expect(textOf(r402)).toMatch(/^insufficient_credits \(HTTP 402\): /);
    } finally {
      await pc.close();
    }

    // A free account under 100 credits: one social request per 10 s.
    const free = await makeUser(p, `free-${kind}`, { credits: 50 });
    const fc = await connect(p, kind, free.key);
    try {
      ok(await call(fc, 'social_user', { username: 'nobody' }));
      // Fixed 10 s windows on the real clock: three quick calls span at most two, so one is refused.
      let r429 = await call(fc, 'social_user', { username: 'nobody' });
      if (!r429.isError) r429 = await call(fc, 'social_user', { username: 'nobody' });
      expect(r429.isError).toBe(true);
      expect(textOf(r429)).toMatch(/^RATE_LIMIT_EXCEEDED \(HTTP 429\): /);
      const wait = Number(/retry_after_seconds: (\d+)/.exec(textOf(r429))![1]);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(600);
    } finally {
      await fc.close();
    }
  }, 60_000);

  it('cancelling a call cancels the platform task', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `${tls.url}/slow/${kind === 'stdio' ? 100 + i : 200 + i}`);
    const stop = new AbortController();
    let jobId = '';
    const pending = c.client.callTool(
      { name: 'web_scrape_batch', arguments: { urls, max_concurrency: 1 } },
      undefined,
      {
        signal: stop.signal,
        onprogress: (n) => {
          jobId ||= /batch scrape (\S+):/.exec(n.message ?? '')?.[1] ?? '';
          if (jobId && n.progress >= 1) stop.abort('enough');
        },
        timeout: 60_000,
      },
    );
    await expect(pending).rejects.toThrow();
    expect(jobId).not.toBe('');
    const auth = { authorization: `Bearer ${p.boot.api_key}` };
    let job: any;
    for (let i = 0; i < 100; i++) {
      job = await (await p.fetch(`/v1/beta/scrape/batch-scrape/${jobId}`, { headers: auth })).json();
      if (job.status === 'cancelled') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job.status).toBe('cancelled');
    expect(job.progress.done).toBeLessThan(20);
  }, 60_000);
});

describe('facet mcp on stdio', () => {
  it('writes nothing but JSON-RPC messages on stdout, takes --base-url, and ends when stdin closes', async () => {
    const proc = execa('node', [BIN, '--base-url', p.url, 'mcp'], {
      env: { FACET_CONFIG_DIR: tempDir('mcp-config'), FACET_API_KEY: p.boot.api_key, CI: 'true' },
      extendEnv: true,
      reject: false,
      timeout: 30_000,
    });
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    const send = (m: unknown) => proc.stdin!.write(JSON.stringify(m) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'livedocs_list', arguments: {} } });
    for (let i = 0; i < 300 && out.split('\n').filter(Boolean).length < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    proc.stdin!.end();
    const r = await proc;
    expect(r.exitCode).toBe(0);
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.jsonrpc, l.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(lines[0].result.serverInfo.name).toBe('facet');
    expect(lines[1].result.structuredContent).toMatchObject({ page: 1, items: expect.any(Array) });
    expect(String(r.stderr)).toMatch(/facet mcp: serving/);
  }, 40_000);

  it('without an API key it says how to get one, on stderr, and exits 3', async () => {
    const r = await runCli(tempDir('mcp-nokey'), ['--base-url', p.url, 'mcp']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/facet mcp acts with an API key/);
    expect(r.stderr).toMatch(/FACET_API_KEY/);
  });
});

describe('LiveDocs as MCP resources', () => {
  it('are listed page by page with a cursor, read as JSON and text, and described by templates', async () => {
    const owner = await makeUser(p, 'shelves');
    const auth = { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' };
    const v2 = async (path: string, body: unknown) =>
      (await (await p.fetch(path, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()).data;
    const doc = await v2('/v2/livedocs', { name: 'Shelf' });
    const notes = [];
    for (let i = 0; i < 120; i++)
      notes.push(
        await v2(`/v2/livedocs/${doc.short_id}/resources/doc`, { title: `Note ${i}`, content: `Note number ${i}.` }),
      );
    const other = await v2('/v2/livedocs', { name: 'Second shelf' });

    const c = await connect(p, 'http', owner.key);
    try {
      const { resourceTemplates } = await c.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'facet://livedocs/{livedoc_id}',
        'facet://livedocs/{livedoc_id}/resources/{resource_id}',
      ]);
      const uris: string[] = [];
      let cursor: string | undefined;
      let pagesRead = 0;
      do {
        const page = await c.client.listResources(cursor ? { cursor } : undefined);
        expect(page.resources.length).toBeLessThanOrEqual(100);
        uris.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
        pagesRead++;
      } while (cursor && pagesRead < 10);
      expect(pagesRead).toBe(2);
      expect(new Set(uris).size).toBe(uris.length);
      expect(uris).toHaveLength(1 + 120 + 1);
      expect(uris).toContain(`facet://livedocs/${other.short_id}`);
      expect(uris).toContain(`facet://livedocs/${doc.short_id}/resources/${notes[119].id}`);

      const shelf = await c.client.readResource({ uri: `facet://livedocs/${doc.short_id}` });
      const body = JSON.parse((shelf.contents[0] as { text: string }).text);
      expect(body).toMatchObject({ id: doc.short_id, name: 'Shelf', resources_total: 120 });
      const one = await c.client.readResource({ uri: `facet://livedocs/${doc.short_id}/resources/${notes[7].id}` });
      expect(one.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
      expect((one.contents[0] as { text: string }).text).toMatch(/Note number 7\./);

      await expect(c.client.readResource({ uri: 'facet://livedocs/ld_missing' })).rejects.toThrow(/not found/i);
      await expect(c.client.listResources({ cursor: 'garbage' })).rejects.toThrow(/cursor/);
    } finally {
      await c.close();
    }
  }, 60_000);
});
