import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { serveHttpsPages, type HttpsPages } from '../helpers/https-pages.js';
import { servePages } from '../helpers/pages.js';

let pages: HttpsPages;
let p: Platform;

beforeAll(async () => {
  pages = await serveHttpsPages(tempDir('tls'), { slowMs: 150 });
  // The platform trusts the test's self-signed certificate through Node's NODE_EXTRA_CA_CERTS.
  p = await startPlatform({ env: { NODE_EXTRA_CA_CERTS: pages.caFile } });
}, 60_000);
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
});

const post = (body: unknown, key?: string) =>
  p.fetch('/v1/beta/scrape/batch-scrape', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${p.boot.api_key}`,
      'content-type': 'application/json',
      ...(key !== undefined ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
const poll = async (id: string) =>
  (
    await p.fetch(`/v1/beta/scrape/batch-scrape/${id}`, { headers: { authorization: `Bearer ${p.boot.api_key}` } })
  ).json();
const range = (n: number, kind: 'page' | 'slow', from = 0) =>
  Array.from({ length: n }, (_, i) => `${pages.url}/${kind}/${from + i}`);
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await sleep(100);
  }
}

describe('batch scrape over HTTPS pages the test serves', () => {
  it('200 pages at concurrency 20: every page scraped exactly once; idempotent replay; 422 on a changed body', async () => {
    const dir = tempDir('scrape');
    const urlsFile = path.join(dir, 'urls.txt');
    const urls = range(200, 'slow', 1000);
    writeFileSync(urlsFile, '# two hundred pages\n' + urls.join('\n') + '\n');
    pages.resetMax();
    const out = path.join(dir, 'out');
    const args = [
      'beta',
      'scrape',
      '--urls-file',
      urlsFile,
      '--concurrency',
      '20',
      '--main-content',
      '--idempotency-key',
      'run-200',
      '--wait',
      '--interval',
      '0.2',
      '--out',
      out,
      '--json',
    ];
    const job = okJson(await p.cli(args, { timeout: 180_000 }));
    expect(job).toMatchObject({
      object: 'integration_async_job',
      endpoint: 'scrape.batch_scrape',
      status: 'completed',
      outputExpired: false,
    });
    expect(job.completedAt).toEqual(expect.any(String));
    expect(job.pricing).toEqual({
      currency: 'USD',
      authorizedMicrosUSD: 200_000,
      finalMicrosUSD: 200_000,
      billingMode: 'per_page',
    });
    expect(job.output.total).toBe(200);
    expect(job.output.succeeded).toBe(200);
    expect(job.output.data.map((d: { url: string }) => d.url)).toEqual(urls);
    expect(job.output.data[7].markdown).toContain('This is the body text of page number 1007.');
    expect(job.output.data[7].markdown).not.toContain('Site menu'); // onlyMainContent
    for (const u of urls) expect(pages.hits.get(new URL(u).pathname), u).toBe(1);
    expect(pages.maxInFlight()).toBeLessThanOrEqual(20);
    expect(pages.maxInFlight()).toBeGreaterThan(1);
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(201);
    expect(readFileSync(path.join(out, files[0]), 'utf8')).toContain('This is the body text of page number 1000.');

    // The same key and body: the same job, nothing fetched again.
    const again = okJson(
      await p.cli([
        'beta',
        'scrape',
        '--urls-file',
        urlsFile,
        '--concurrency',
        '20',
        '--main-content',
        '--idempotency-key',
        'run-200',
        '--json',
      ]),
    );
    expect(again.id).toBe(job.id);
    const replay = await post({ urls, maxConcurrency: 20, onlyMainContent: true }, '"run-200"');
    expect(replay.status).toBe(202);
    expect(replay.headers.get('location')).toBe(`/v1/beta/scrape/batch-scrape/${job.id}`);
    expect((await replay.json()).id).toBe(job.id);
    for (const u of urls) expect(pages.hits.get(new URL(u).pathname)).toBe(1);

    // The same key with another body.
    const changed = await post({ urls, maxConcurrency: 19, onlyMainContent: true }, 'run-200');
    expect(changed.status).toBe(422);
    const body = await changed.json();
    expect(body).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' }, request_id: expect.any(String) });
    // Keys are per API key: another key of the same user may use the same Idempotency-Key.
    const other = okJson(await p.cli(['keys', 'create', '--name', 'second', '--json']));
    const res = await p.fetch('/v1/beta/scrape/batch-scrape', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other.key}`,
        'content-type': 'application/json',
        'idempotency-key': 'run-200',
      },
      body: JSON.stringify({ urls: [`${pages.url}/slow/1000`], maxAge: 3_600_000 }),
    });
    expect(res.status).toBe(202);
    expect((await res.json()).id).not.toBe(job.id);
  }, 240_000);

  it('concurrent first uses of one key make one job; the others get it or a 409', async () => {
    const urls = range(1000, 'page', 10_000);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        post({ urls, maxAge: 0 }, 'race-key').then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    const created = answers.filter((a) => a.status === 202);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 202))
      expect(a).toMatchObject({ status: 409, body: { error: { code: 'IDEMPOTENCY_KEY_IN_USE' } } });
    await fetchCancel(created[0].body.id);
  }, 60_000);

  it('cancel mid-job: the job ends cancelled and no page is fetched after it', async () => {
    const urls = range(60, 'slow', 100);
    const created = await post({ urls, maxConcurrency: 2 }, 'cancel-me');
    expect(created.status).toBe(202);
    const { id } = await created.json();
    await until(
      () => poll(id),
      (j) => j.progress.done >= 4,
    );
    const r = await p.cli(['beta', 'scrape', 'cancel', id, '--json']);
    const job = okJson(r);
    expect(job.status).toBe('cancelled');
    expect(job.output).toBeNull();
    expect(job.finalMicrosUSD ?? job.pricing.finalMicrosUSD).toEqual(expect.any(Number));
    const fetched = () => urls.filter((u) => pages.hits.get(new URL(u).pathname)).length;
    const atCancel = fetched();
    await sleep(800);
    expect(fetched()).toBe(atCancel);
    expect(atCancel).toBeLessThan(60);
    const waited = await p.cli(['beta', 'scrape', 'wait', id]);
    expect(waited.exitCode).toBe(6);
  }, 60_000);

  it('kill -9 mid-job: after a restart the job completes and no page is fetched twice', async () => {
    const urls = range(80, 'slow', 500);
    const created = await post({ urls, maxConcurrency: 4 }, 'crash-me');
    const { id } = await created.json();
    await until(
      () => poll(id),
      (j) => j.progress.done >= 12,
    );
    await p.kill();
    const before = urls.filter((u) => pages.hits.get(new URL(u).pathname)).length;
    expect(before).toBeLessThan(80);
    p = await startPlatform({ dataDir: p.dataDir, configDir: p.configDir, env: { NODE_EXTRA_CA_CERTS: pages.caFile } });
    const job = await until(
      () => poll(id),
      (j) => j.status === 'completed',
      90_000,
    );
    expect(job.status).toBe('completed');
    for (const u of urls) expect(pages.hits.get(new URL(u).pathname) ?? 0, u).toBeLessThanOrEqual(1);
    const interrupted = job.output.data.filter((d: { error?: { code: string } }) => d.error?.code === 'INTERRUPTED');
    const succeeded = job.output.data.filter((d: { status: string }) => d.status === 'success');
    expect(succeeded.length + interrupted.length).toBe(80);
    // A page the crash caught in flight (its request sent or about to be) is reported, never fetched again.
    for (const d of interrupted) expect(pages.hits.get(new URL(d.url).pathname) ?? 0).toBeLessThanOrEqual(1);
    expect(interrupted.length).toBeLessThanOrEqual(4);
  }, 180_000);

  it('a redirect from https to plain http is refused for that page, not followed', async () => {
    const plain = await servePages({
      '/page': { body: '<html><head><title>Plain</title></head><body><p>Sent without TLS.</p></body></html>' },
    });
    try {
      const urls = [
        `${pages.url}/redirect?to=${encodeURIComponent(`${plain.url}/page`)}`,
        `${pages.url}/redirect?to=${encodeURIComponent(`${pages.url}/page/7`)}`,
      ];
      const created = await post({ urls }, 'to-plain-http');
      expect(created.status).toBe(202);
      const { id } = await created.json();
      const job = await until(
        () => poll(id),
        (j) => j.status === 'completed',
      );
      expect(job.output).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
      expect(job.output.data[0]).toEqual({
        url: urls[0],
        status: 'failed',
        error: {
          code: 'FETCH_REFUSED',
          message: `refused to fetch ${plain.url}/page (redirected from ${urls[0]}): only https URLs are fetched here, and a redirect may not leave https`,
        },
      });
      expect(plain.hits.get('/page') ?? 0).toBe(0);
      // An https to https redirect is followed as before.
      expect(job.output.data[1]).toMatchObject({ status: 'success', finalUrl: `${pages.url}/page/7`, title: 'Page 7' });
    } finally {
      await plain.close();
    }
  });

  it('--wait says which pages failed and why, piped and with --json', async () => {
    const urls = [`${pages.url}/page/1`, `${pages.url}/nowhere`];
    const r = await p.cli(['beta', 'scrape', ...urls, '--wait', '--idempotency-key', 'reasons-shown']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`warning: ${pages.url}/nowhere: .*404.* \\([A-Z_]+\\)`));
    expect(r.stderr).not.toContain(`warning: ${pages.url}/page/1`);
    // Piped, as every create verb: the job id alone.
    expect(r.stdout).toMatch(/^bsj_\w+\n$/);
    const id = r.stdout.trim();
    const again = await p.cli(['beta', 'scrape', 'wait', id, '--json']);
    expect(JSON.parse(again.stdout).output.failed).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`warning: ${pages.url}/nowhere: .*404`));
  });

  it('refuses bad requests in the beta error shape with a request id', async () => {
    const cases: Array<[unknown, string | undefined, number, RegExp]> = [
      [{ urls: [`${pages.url}/page/1`] }, undefined, 400, /idempotency-key: Field required/],
      [{ urls: [`${pages.url}/page/1`] }, 'x'.repeat(192), 400, /idempotency-key/],
      [{ urls: ['http://127.0.0.1/page/1'] }, 'k1', 400, /https URL/],
      [{ urls: [`${pages.url}/doc.pdf`] }, 'k2', 400, /PDF is not supported/],
      [{ urls: [`${pages.url}/page/1`, `${pages.url}/page/1`] }, 'k3', 400, /duplicate URL/],
      [{ urls: [] }, 'k4', 400, /urls/],
      [{ urls: [`${pages.url}/page/1`], maxConcurrency: 21 }, 'k5', 400, /maxConcurrency/],
      [{ urls: [`${pages.url}/page/1`], timeout: 999 }, 'k6', 400, /timeout/],
      [{ urls: [`${pages.url}/page/1`], includeTags: Array(51).fill('p') }, 'k7', 400, /includeTags/],
    ];
    for (const [body, key, status, msg] of cases) {
      const r = await post(body, key);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      const b = await r.json();
      expect(b.request_id).toEqual(expect.any(String));
      expect(b.error.message).toMatch(msg);
    }
    const missing = await p.fetch('/v1/beta/scrape/batch-scrape/bsj_nope', {
      headers: { authorization: `Bearer ${p.boot.api_key}` },
    });
    expect(missing.status).toBe(404);
  });
});

async function fetchCancel(id: string) {
  await p.fetch(`/v1/beta/scrape/batch-scrape/${id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${p.boot.api_key}` },
  });
}
