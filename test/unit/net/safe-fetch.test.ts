import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchPolicy, type Lookup } from '../../../src/server/net/policy.js';
import { safeFetch } from '../../../src/server/net/safe-fetch.js';
import { OutboundFetchError } from '../../../src/server/net/errors.js';
import { hugePage } from '../../helpers/huge-page.js';

let server: http.Server;
let port: number;
const hits = new Map<string, number>();

const CHUNK = Buffer.alloc(64 * 1024, 'a');
const huge = hugePage(CHUNK);
const PLAIN = 'the tide comes in and goes out again. '.repeat(100);
const GZ = gzipSync(PLAIN);
// 64 MiB of zeros in about 64 KB.
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/page')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${req.headers.host}`);
    if (path === '/to-secret') return void res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
    if (path === '/to-page') return void res.writeHead(301, { location: '/page' }).end();
    if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (path === '/post-see-other') return void res.writeHead(303, { location: '/method' }).end();
    if (path === '/method') return void res.end(req.method);
    if (path === '/secret') return void res.end('the secret');
    if (path === '/declared-huge')
      return void res.writeHead(200, { 'content-length': String(400 * 1024 * 1024) }).end();
    if (path === '/slow') return; // never answers
    if (path === '/huge') return huge.serve(res);
    if (path === '/to-http') return void res.writeHead(302, { location: `http://127.0.0.1:${port}/page` }).end();
    if (path === '/gzip')
      return void res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(GZ.length) }).end(GZ);
    if (path === '/br-then-gzip')
      return void res.writeHead(200, { 'content-encoding': 'br, gzip' }).end(gzipSync(brotliCompressSync(PLAIN)));
    if (path === '/deflate') return void res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(PLAIN));
    if (path === '/empty-gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end();
    if (path === '/corrupt-gzip')
      return void res.writeHead(200, { 'content-encoding': 'gzip' }).end('this is not gzip at all');
    if (path === '/unknown-coding') return void res.writeHead(200, { 'content-encoding': 'snappy' }).end('as sent');
    if (path === '/accept-encoding') return void res.end(req.headers['accept-encoding']);
    if (path === '/gzip-bomb') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(BOMB);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Names that exist only here: a fetch that works proves the connection used the checked address. */
const lookups: string[] = [];
const names: Lookup = async (host) => {
  lookups.push(host);
  if (host === 'docs.test' || host === 'allowed.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundFetchError);
  return err as OutboundFetchError;
};

describe('safeFetch', () => {
  it('refuses localhost (127.0.0.1) without an allowance and fetches it with one', async () => {
    const err = await failure(safeFetch(`http://localhost:${port}/page`, { policy: new FetchPolicy() }));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(
      /localhost resolves to 127\.0\.0\.1, a loopback address; facet serve --allow-fetch-from localhost \(or 127\.0\.0\.1\/32\) allows it/,
    );
    expect(hits.get('/page') ?? 0).toBe(0);
    for (const allow of ['localhost', '127.0.0.1/32']) {
      const res = await safeFetch(`http://localhost:${port}/page`, { policy: new FetchPolicy([allow]) });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(`hello from localhost:${port}`);
    }
  });

  it('connects to the address it checked: the name is resolved once, by the policy, never again', async () => {
    lookups.length = 0;
    const res = await safeFetch(`http://docs.test:${port}/page`, { policy: new FetchPolicy(['docs.test'], names) });
    expect(res.body.toString()).toBe(`hello from docs.test:${port}`);
    expect(lookups).toEqual(['docs.test']);
  });

  it('refuses a redirect from an allowed page to a refused address at the hop', async () => {
    const before = hits.get('/secret') ?? 0;
    const err = await failure(
      safeFetch(`http://allowed.test:${port}/to-secret`, { policy: new FetchPolicy(['allowed.test'], names) }),
    );
    expect(err.kind).toBe('refused');
    expect(err.url).toBe(`http://127.0.0.1:${port}/secret`);
    expect(err.message).toBe(
      `refused to fetch http://127.0.0.1:${port}/secret (redirected from http://allowed.test:${port}/to-secret): 127.0.0.1 is a loopback address; facet serve --allow-fetch-from 127.0.0.1 allows it`,
    );
    expect(hits.get('/secret') ?? 0).toBe(before);
    // Allowed hops are followed.
    const ok = await safeFetch(`http://allowed.test:${port}/to-page`, {
      policy: new FetchPolicy(['allowed.test'], names),
    });
    expect(ok).toMatchObject({
      status: 200,
      url: `http://allowed.test:${port}/page`,
      redirects: [`http://allowed.test:${port}/to-page`],
    });
  });

  it('refuses 169.254.169.254 without connecting', async () => {
    const err = await failure(
      safeFetch('http://169.254.169.254/latest/meta-data/', { policy: new FetchPolicy(), timeoutMs: 2000 }),
    );
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/169\.254\.169\.254 is a link-local address/);
  });

  it('bounds redirects, switches to GET after a 303, and limits time', async () => {
    const policy = new FetchPolicy(['127.0.0.1']);
    expect((await failure(safeFetch(`http://127.0.0.1:${port}/loop`, { policy, maxRedirects: 3 }))).kind).toBe(
      'too-many-redirects',
    );
    const see = await safeFetch(`http://127.0.0.1:${port}/post-see-other`, { policy, method: 'POST', body: 'x' });
    expect(see.body.toString()).toBe('GET');
    const manual = await safeFetch(`http://127.0.0.1:${port}/to-page`, { policy, maxRedirects: 0 });
    expect(manual.status).toBe(301);
    const slow = await failure(safeFetch(`http://127.0.0.1:${port}/slow`, { policy, timeoutMs: 300 }));
    expect(slow.kind).toBe('timeout');
    const caller = new AbortController();
    const aborted = safeFetch(`http://127.0.0.1:${port}/slow`, { policy, signal: caller.signal }).catch(
      (e: unknown) => e,
    );
    caller.abort(new Error('cancelled by the caller'));
    expect(((await aborted) as Error).message).toBe('cancelled by the caller');
  });

  it('refuses a declared oversize body without reading it', async () => {
    const err = await failure(
      safeFetch(`http://127.0.0.1:${port}/declared-huge`, {
        policy: new FetchPolicy(['127.0.0.1']),
        maxBytes: 1024 * 1024,
      }),
    );
    expect(err.kind).toBe('too-large');
  });

  it('cuts a 400 MB chunked body at the cap: memory stays flat and the sender is stopped', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const err = await failure(
        safeFetch(`http://127.0.0.1:${port}/huge`, {
          policy: new FetchPolicy(['127.0.0.1']),
          maxBytes: 15 * 1024 * 1024,
          timeoutMs: 60_000,
        }),
      );
      expect(err.kind).toBe('too-large');
      expect(err.message).toBe(`the response from http://127.0.0.1:${port}/huge is larger than 15 MB`);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, 100));
    // The connection was closed at the cap, so the sender stopped far short of 400 MB.
    expect(huge.sent()).toBeLessThan(100 * 1024 * 1024);
  });

  it('decodes gzip, deflate and stacked codings with zlib; the cap applies to the decompressed bytes', async () => {
    const policy = new FetchPolicy(['127.0.0.1']);
    const at = (path: string, o: { maxBytes?: number } = {}) =>
      safeFetch(`http://127.0.0.1:${port}${path}`, { policy, ...o });
    expect((await at('/accept-encoding')).body.toString()).toBe('gzip, deflate, br');
    for (const path of ['/gzip', '/deflate', '/br-then-gzip']) {
      const res = await at(path);
      expect(res.body.toString(), path).toBe(PLAIN);
      expect(res.headers.get('content-encoding'), path).toBeNull();
      expect(res.headers.get('content-length'), path).toBeNull();
    }
    expect((await at('/empty-gzip')).body.length).toBe(0);
    expect((await at('/unknown-coding')).body.toString()).toBe('as sent');
    // Exactly at the cap passes; one byte less fails, naming the limit.
    expect((await at('/gzip', { maxBytes: PLAIN.length })).body.toString()).toBe(PLAIN);
    const over = await failure(at('/gzip', { maxBytes: PLAIN.length - 1 }));
    expect(over.kind).toBe('too-large');
    expect(over.message).toBe(
      `the response from http://127.0.0.1:${port}/gzip is larger than 3.7 KB once decompressed`,
    );
    const bomb = await failure(at('/gzip-bomb', { maxBytes: 1024 * 1024 }));
    expect(bomb.message).toBe(
      `the response from http://127.0.0.1:${port}/gzip-bomb is larger than 1 MB once decompressed`,
    );
    const corrupt = await failure(at('/corrupt-gzip'));
    expect(corrupt.kind).toBe('network');
    expect(corrupt.message).toBe(
      `cannot decode the gzip response from http://127.0.0.1:${port}/corrupt-gzip: incorrect header check`,
    );
  });

  it('httpsOnly refuses a redirect to plain http instead of following it', async () => {
    const before = hits.get('/page') ?? 0;
    // The first URL is plain http here only because the test has no certificate; the hop is what is judged.
    const err = await failure(
      safeFetch(`http://127.0.0.1:${port}/to-http`, { policy: new FetchPolicy(['127.0.0.1']), httpsOnly: true }),
    );
    expect(err.kind).toBe('refused');
    expect(err.message).toBe(
      `refused to fetch http://127.0.0.1:${port}/page (redirected from http://127.0.0.1:${port}/to-http): only https URLs are fetched here, and a redirect may not leave https`,
    );
    expect(hits.get('/page') ?? 0).toBe(before);
  });
});
