import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HtmlValidate } from 'html-validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { SOLAR_DOCS, SOLAR_QUERY } from '../helpers/landing-docs.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { LANDING_PAGE_CREDITS } from '../../src/contract/landing-pages.js';

/** Landing pages end to end: the built CLI against a real `facet serve`, no network. */
let p: Platform;
let dir: string;
let textLiveDoc: string;
const files: Record<string, string> = {};
const onSqlite = process.env.FACET_E2E_POSTGRES !== '1';

beforeAll(async () => {
  p = await startPlatform();
  dir = tempDir('pages');
  for (const d of SOLAR_DOCS) writeFileSync((files[d.name] = path.join(dir, d.name)), d.text);
  textLiveDoc = ok(await p.cli(['livedocs', 'create', 'Solar text'])).stdout.trim();
  ok(await p.cli(['livedocs', 'resources', 'upload-doc', textLiveDoc, files['solar-guide.md']]));
}, 60_000);
afterAll(() => p?.cleanup());

const credits = async (env?: Record<string, string>) =>
  okJson(await p.cli(['whoami', '--json'], { env })).user.credits as number;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const postJson = (body: unknown, key = p.boot.api_key) =>
  p.fetch('/v2/landing_page', {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
function postForm(
  fields: Record<string, string>,
  parts: Array<[string, string | Buffer, string]>,
  key = p.boot.api_key,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, content, filename] of parts)
    form.append(name, new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), filename);
  return p.fetch('/v2/landing_page', { method: 'POST', headers: bearer(key), body: form });
}

async function validate(html: string) {
  const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(html);
  return report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.line}:${m.column} ${m.message}`));
}

/** A user of its own with `credits` credits and an API key. */
async function newUser(
  name: string,
  credits: number,
): Promise<{ id: string; key: string; env: Record<string, string> }> {
  const user = okJson(
    await p.cli(['serve', 'users', 'create', name, '--credits', String(credits), '--data-dir', p.dataDir, '--json']),
  );
  const token = ok(await p.cli(['serve', 'token', name, '--data-dir', p.dataDir])).stdout.trim();
  const key = okJson(await p.cli(['keys', 'create', '--json'], { env: { FACET_ACCESS_TOKEN: token } })).key as string;
  return { id: user.id, key, env: { FACET_API_KEY: key } };
}

/** What the store holds for a user (SQLite runs only: the file is read as it is, read-only). */
function storeOf(userId: string) {
  const db = new Database(path.join(p.dataDir, 'facet.db'), { readonly: true, fileMustExist: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get(userId) as { n: number }).n;
    return {
      tasks: n('SELECT count(*) AS n FROM doc_tasks WHERE user_id = ?'),
      livedocs: n('SELECT count(*) AS n FROM livedocs WHERE owner_id = ?'),
      resources: n(
        'SELECT count(*) AS n FROM livedoc_resources WHERE livedoc_id IN (SELECT id FROM livedocs WHERE owner_id = ?)',
      ),
      ledger: n('SELECT count(*) AS n FROM credit_ledger WHERE user_id = ?'),
    };
  } finally {
    db.close();
  }
}

describe('facet pages', () => {
  let taskId: string;
  let pageHtml: string;

  it('create --file --wait --out: a valid, self-contained page written from the uploaded file; 10 credits, in the ledger', async () => {
    const before = await credits();
    const out = path.join(dir, 'page.html');
    const run = ok(
      await p.cli(
        [
          'pages',
          'create',
          SOLAR_QUERY,
          '--file',
          files['solar-guide.md'],
          '--wait',
          '--out',
          out,
          '--interval',
          '2',
          '--json',
        ],
        { timeout: 90_000 },
      ),
    );
    expect(run.stderr).toMatch(new RegExp(`charged ${LANDING_PAGE_CREDITS} credits`));
    const record = JSON.parse(run.stdout);
    expect(record).toMatchObject({ task_status: 'COMPLETED', kind: 'landing_page' });
    taskId = record.task_id;
    pageHtml = readFileSync(out, 'utf8');
    expect(await validate(pageHtml)).toEqual([]);
    expect(pageHtml).not.toMatch(/https?:\/\//i);
    expect(pageHtml).not.toMatch(/<script|<link|<img|<iframe|url\(/i);
    expect(pageHtml).toContain('<html lang="en">');
    expect(pageHtml).toContain('$15,000');
    expect(pageHtml).toContain('<h3>How panels work</h3>');
    expect(await credits()).toBe(before - LANDING_PAGE_CREDITS);
    const ledger = okJson(await p.cli(['api', 'GET', '/v2/credits/ledger'])).data;
    expect(ledger.items[0]).toMatchObject({
      delta: -LANDING_PAGE_CREDITS,
      balance_after: before - LANDING_PAGE_CREDITS,
      reason: 'landing_page',
      task_id: taskId,
    });
    // The file was stored first as a resource of a new LiveDoc.
    const resources = okJson(await p.cli(['livedocs', 'resources', 'list', record.live_doc_short_id, '--json']));
    expect(JSON.stringify(resources)).toContain('Home solar guide');
    expect(ok(await p.cli(['pages', 'status', taskId])).stdout.trim()).toBe('COMPLETED');
    // ppt_url (/slides/<biz_id>, spec 2.6) of a landing-page task shows the same page.
    expect(record.ppt_url).toMatch(/\/slides\/page_[a-z0-9]+\?expires=\d+&sig=/);
    const viaSlides = await fetch(record.ppt_url);
    expect(viaSlides.status).toBe(200);
    expect(await viaSlides.text()).toBe(pageHtml);
    // The page is a private file of the task.
    const stored = path.join(p.dataDir, 'files', 'tasks', taskId, 'output', 'landing-page.html');
    expect(statSync(stored).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(stored)).mode & 0o777).toBe(0o700);
    expect(readFileSync(stored, 'utf8')).toBe(pageHtml);
  }, 120_000);

  it('open prints the signed URL: the page with a CSP that forbids network loads; an altered signature is a 403', async () => {
    const url = ok(await p.cli(['pages', 'open', taskId, '--browser'])).stdout.trim();
    expect(url).toMatch(/\/pages\/page_[a-z0-9]+\?expires=\d+&sig=/);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toBe(pageHtml);
    const bad = await fetch(url.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A')));
    expect(bad.status).toBe(403);
    expect(await bad.text()).toMatch(/not valid/);
    expect((await fetch(url.replace(/\?.*$/, ''))).status).toBe(403);
    // `wait` on a finished task saves the page too.
    const again = path.join(dir, 'again.html');
    ok(await p.cli(['pages', 'wait', taskId, '--out', again]));
    expect(readFileSync(again, 'utf8')).toBe(pageHtml);
  });

  it("another user's task id is a 404 for status, get and open", async () => {
    const bob = await newUser('bob', 0);
    for (const verb of ['status', 'get', 'open']) {
      const r = await p.cli(['pages', verb, taskId], { env: bob.env });
      expect(r.exitCode, verb).toBe(4);
      expect(r.stderr).toMatch(/NOT_FOUND/);
    }
  });

  it('JSON over a LiveDoc of three documents: figures from the table, the FAQ heading; --resource narrows the sources', async () => {
    const ld = ok(await p.cli(['livedocs', 'create', 'Solar'])).stdout.trim();
    const ids: Record<string, string> = {};
    for (const d of SOLAR_DOCS)
      ids[d.name] = ok(await p.cli(['livedocs', 'resources', 'upload-doc', ld, files[d.name]])).stdout.trim();
    const out = path.join(dir, 'three.html');
    const record = okJson(
      await p.cli(
        ['pages', 'create', SOLAR_QUERY, '--livedoc', ld, '--wait', '--out', out, '--interval', '2', '--json'],
        { timeout: 90_000 },
      ),
    );
    expect(record.live_doc_short_id).toBe(ld);
    const html = readFileSync(out, 'utf8');
    expect(await validate(html)).toEqual([]);
    // Key figures are whole facts: each with the sentence of the source that states it.
    const figures = [...html.matchAll(/<li><span class="value">([^<]+)<\/span><span class="label">([^<]+)/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(figures.length).toBeGreaterThanOrEqual(2);
    for (const [value, label] of figures) expect(label, value).toContain(value);
    expect(figures).toContainEqual(['$15,000', 'A typical 6 kW home solar system costs $15,000 before incentives.']);
    expect(html).toContain('Is my roof suitable for solar panels?');
    expect(html.match(/<li id="src-\d+"/g)).toHaveLength(3);

    const narrow = path.join(dir, 'narrow.html');
    ok(
      await p.cli(
        [
          'pages',
          'create',
          'home batteries',
          '--livedoc',
          ld,
          '--resource',
          ids['batteries.md'],
          '--wait',
          '--out',
          narrow,
          '--interval',
          '2',
        ],
        { timeout: 90_000 },
      ),
    );
    const only = readFileSync(narrow, 'utf8');
    expect(only.match(/<li id="src-\d+"/g)).toHaveLength(1);
    expect(only).toContain('13.5 kWh');
    expect(only).not.toContain('$15,000');
  }, 180_000);

  it('402 INSUFFICIENT_CREDITS, JSON or multipart, leaves the balance and the store unchanged', async () => {
    const carol = await newUser('carol', LANDING_PAGE_CREDITS - 1);
    // JSON without a LiveDoc has nothing to build from: a 400 before the price is even looked at.
    const bare = await postJson({ query: 'solar' }, carol.key);
    expect(bare.status).toBe(400);
    const multi = await postForm({ query: 'solar' }, [['file', SOLAR_DOCS[0].text, 'solar.md']], carol.key);
    expect(multi.status).toBe(402);
    const cli = await p.cli(['pages', 'create', 'solar', '--file', files['solar-guide.md']], { env: carol.env });
    expect(cli.exitCode).toBe(5);
    expect(cli.stderr).toMatch(/INSUFFICIENT_CREDITS/);
    expect(await credits(carol.env)).toBe(LANDING_PAGE_CREDITS - 1);
    expect(okJson(await p.cli(['livedocs', 'list', '--json'], { env: carol.env })).total).toBe(0);
    if (onSqlite) expect(storeOf(carol.id)).toEqual({ tasks: 0, livedocs: 0, resources: 0, ledger: 0 });
    expect(readdirSync(path.join(p.dataDir, 'files', 'tmp'))).toEqual([]);
  });

  it('20 concurrent creates never spend more than the balance', async () => {
    const dave = await newUser('dave', LANDING_PAGE_CREDITS * 5 + 5);
    // A LiveDoc with text, so every page is written and none is refunded during the burst.
    const ld = ok(await p.cli(['livedocs', 'create', 'Solar'], { env: dave.env })).stdout.trim();
    ok(await p.cli(['livedocs', 'resources', 'upload-doc', ld, files['solar-guide.md']], { env: dave.env }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postJson({ query: `solar panels ${i}`, livedoc_short_id: ld }, dave.key)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    expect(await credits(dave.env)).toBe(5);
    if (onSqlite) expect(storeOf(dave.id)).toEqual({ tasks: 5, livedocs: 1, resources: 1, ledger: 5 });
  }, 60_000);

  it('nothing to build from is a 400 before any charge, and leaves no LiveDoc: a file with no text, no LiveDoc, an empty LiveDoc', async () => {
    const erin = await newUser('erin', 50);
    const binary = path.join(dir, 'blob.bin');
    writeFileSync(binary, Buffer.from([0, 1, 2, 3, 255, 254, 0, 0]));
    const r = await p.cli(['pages', 'create', 'solar', '--file', binary, '--wait', '--interval', '2'], {
      env: erin.env,
      timeout: 60_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/blob\.bin has no text to build a page from/);
    const none = await postJson({ query: 'solar' }, erin.key);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({
      status: 'error',
      code: 'INVALID_PARAMETER',
      message: expect.stringMatching(/nothing to build a page from/),
    });
    const empty = ok(await p.cli(['livedocs', 'create', 'Empty'], { env: erin.env })).stdout.trim();
    const emptyRes = await postJson({ query: 'solar', livedoc_short_id: empty }, erin.key);
    expect(emptyRes.status).toBe(400);
    expect(await emptyRes.json()).toMatchObject({
      code: 'INVALID_PARAMETER',
      message: expect.stringMatching(new RegExp(`LiveDoc ${empty} holds no text`)),
    });
    expect(await credits(erin.env)).toBe(50);
    expect(okJson(await p.cli(['api', 'GET', '/v2/credits/ledger'], { env: erin.env })).data.items).toEqual([]);
    // Only the LiveDoc the user made is there: the refusals made none.
    expect(
      okJson(await p.cli(['livedocs', 'list', '--json'], { env: erin.env })).items.map(
        (l: { short_id: string }) => l.short_id,
      ),
    ).toEqual([empty]);
  }, 90_000);

  it('every limit and error at and past its bound', async () => {
    const expectError = async (res: Response, status: number, code: string, message?: RegExp) => {
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(body).toMatchObject({ status: 'error', code });
      if (message) expect(body.message).toMatch(message);
    };
    // query: 1-2000 characters.
    expect((await postJson({ query: 'x'.repeat(2000), livedoc_short_id: textLiveDoc })).status).toBe(200);
    await expectError(await postJson({ query: 'x'.repeat(2001) }), 400, 'INVALID_PARAMETER', /2000/);
    await expectError(await postJson({ query: '' }), 400, 'INVALID_PARAMETER');
    await expectError(await postJson({}), 400, 'MISSING_PARAMETER');
    // stream_protocol: message_center_v1 only.
    expect(
      (await postJson({ query: 'solar', stream_protocol: 'message_center_v1', livedoc_short_id: textLiveDoc })).status,
    ).toBe(200);
    await expectError(
      await postJson({ query: 'solar', stream_protocol: 'sse' }),
      400,
      'INVALID_PARAMETER',
      /message_center_v1/,
    );
    // LiveDocs and resources.
    await expectError(await postJson({ query: 'solar', livedoc_short_id: 'ld_nope' }), 404, 'LIVEDOC_NOT_FOUND');
    const ld = ok(await p.cli(['livedocs', 'create', 'Limits'])).stdout.trim();
    await expectError(
      await postJson({
        query: 'solar',
        livedoc_short_id: ld,
        resource_ids: Array.from({ length: 50 }, (_, i) => `res_${i}`),
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await postJson({
        query: 'solar',
        livedoc_short_id: ld,
        resource_ids: Array.from({ length: 51 }, (_, i) => `res_${i}`),
      }),
      400,
      'INVALID_PARAMETER',
    );
    await expectError(
      await postJson({ query: 'solar', resource_ids: ['res_1'] }),
      400,
      'INVALID_PARAMETER',
      /livedoc_short_id/,
    );
    await expectError(await postJson({ query: 'solar', colour: 'red' }), 400, 'INVALID_PARAMETER');
    // Multipart: query and exactly one part named "file".
    await expectError(await postForm({ query: 'solar' }, []), 400, 'MISSING_PARAMETER', /file/);
    await expectError(
      await postForm({ query: 'solar' }, [
        ['file', 'a', 'a.md'],
        ['file', 'b', 'b.md'],
      ]),
      400,
      'INVALID_PARAMETER',
      /only one "file"/,
    );
    await expectError(
      await postForm({ query: 'solar' }, [['document', 'a', 'a.md']]),
      400,
      'INVALID_PARAMETER',
      /unknown file field/,
    );
    await expectError(await postForm({}, [['file', 'a', 'a.md']]), 400, 'MISSING_PARAMETER');
    await expectError(
      await postForm({ query: 'solar', livedoc_short_id: 'ld_nope' }, [['file', 'a', 'a.md']]),
      404,
      'LIVEDOC_NOT_FOUND',
    );
    // --out without --wait is a usage error, before any request.
    expect((await p.cli(['pages', 'create', 'solar', '--out', 'x.html'])).exitCode).toBe(2);
  }, 60_000);
});

describe('facet pages: upload limit and an unreachable model upstream', () => {
  let q: Platform;
  beforeAll(async () => {
    // The model upstream is a closed port; the platform's default model is served by it.
    q = await startPlatform({
      args: [
        '--max-upload-mb',
        '1',
        '--upstream-openai-base-url',
        'http://127.0.0.1:9/v1',
        '--default-model',
        'aster-mini',
      ],
    });
  }, 60_000);
  afterAll(() => q?.cleanup());

  it('a file at the upload limit is taken; one byte more is a 413', async () => {
    const post = (size: number) => {
      const form = new FormData();
      form.append('query', 'solar');
      form.append('file', new Blob([Buffer.alloc(size, 'a')]), 'big.txt');
      return q.fetch('/v2/landing_page', { method: 'POST', headers: bearer(q.boot.api_key), body: form });
    };
    expect((await post(1024 * 1024)).status).toBe(200);
    const over = await post(1024 * 1024 + 1);
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ status: 'error' });
  });

  it('the model upstream down: the task ends PENDING (exit 6) and keeps its charge for a retry', async () => {
    const before = okJson(await q.cli(['whoami', '--json'])).user.credits;
    const file = path.join(tempDir('pages'), 'solar.md');
    writeFileSync(file, SOLAR_DOCS[0].text);
    const r = await q.cli(['pages', 'create', 'solar costs', '--file', file, '--wait', '--interval', '2'], {
      timeout: 90_000,
    });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/PENDING: the model upstream is unavailable/);
    expect(r.stderr).toMatch(/facet pages retry/);
    expect(okJson(await q.cli(['whoami', '--json'])).user.credits).toBe(before - LANDING_PAGE_CREDITS);
  }, 120_000);
});

describe('facet pages with an upstream model', () => {
  let up: FakeUpstream;
  let r: Platform;
  beforeAll(async () => {
    up = await startFakeUpstream();
    r = await startPlatform({ args: ['--upstream-openai-base-url', up.openaiBase, '--default-model', 'aster-mini'] });
  }, 60_000);
  afterAll(async () => {
    r?.cleanup();
    await up?.close();
  });

  it("overloaded: PENDING without a new charge; retried: the model's JSON plan is the page, its invented figure left out", async () => {
    const before = okJson(await r.cli(['whoami', '--json'])).user.credits;
    const file = path.join(tempDir('pages'), 'solar.md');
    writeFileSync(file, SOLAR_DOCS[0].text);
    up.script({ status: 503, error: 'overloaded' });
    const created = ok(await r.cli(['pages', 'create', 'solar costs', '--file', file]));
    const id = created.stdout.trim();
    const pending = await r.cli(['pages', 'wait', id, '--interval', '2'], { timeout: 60_000 });
    expect(pending.exitCode).toBe(6);
    expect(pending.stderr).toMatch(/PENDING: the model upstream is unavailable/);

    const plan = {
      title: 'Solar that pays for itself',
      tagline: 'Panels, costs and savings [1]',
      summary: 'A 6 kW system costs $15,000 before incentives [1].',
      sections: [{ heading: 'Savings', body: ['The federal tax credit covers 30% of the cost [1].'], icon: 'chart' }],
      key_numbers: [
        { value: '$15,000', label: 'a typical 6 kW system', source: 1 },
        { value: '77%', label: 'invented', source: 1 },
      ],
      faq: [{ question: 'How long until it pays back?', answer: '8 to 10 years [1].' }],
    };
    up.script({ text: JSON.stringify(plan) });
    ok(await r.cli(['pages', 'retry', id]));
    const out = path.join(tempDir('pages'), 'upstream.html');
    ok(await r.cli(['pages', 'wait', id, '--out', out, '--interval', '2'], { timeout: 60_000 }));
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<h1>Solar that pays for itself</h1>');
    expect(html).toContain('How long until it pays back?');
    expect(html).toContain('$15,000');
    expect(html).not.toContain('77%');
    expect(await validate(html)).toEqual([]);
    // The request the model got carried the uploaded file's text as a numbered source.
    const asked = up.received
      .at(-1)!
      .body.messages.map((m: { content: string }) => m.content)
      .join('\n');
    expect(asked).toMatch(/\[1\] Home solar guide/);
    expect(asked).toContain('$15,000');
    // One charge for the task, however many runs.
    expect(okJson(await r.cli(['whoami', '--json'])).user.credits).toBe(before - LANDING_PAGE_CREDITS);
  }, 150_000);
});
