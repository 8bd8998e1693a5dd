import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUpstreamPool,
  postUpstream,
  postUpstreamJson,
  UpstreamError,
  type UpstreamConfig,
} from '../../src/server/providers/upstream-http.js';

// One fake upstream on 127.0.0.1 whose path picks the answer; both ways of calling it must agree.
let server: http.Server;
let base: string;
const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url!, headers: req.headers, body });
      const path = req.url!.replace(/^\/v1/, '');
      if (path === '/ok')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ echo: JSON.parse(body), ü: 'ü' }));
      if (path === '/bom') return res.writeHead(200).end('\uFEFF{"a":1}');
      if (path === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"parts":[1,');
        return setTimeout(() => res.end('2]}'), 5);
      }
      if (path === '/limited')
        return res.writeHead(429, { 'retry-after': '7' }).end(JSON.stringify({ error: { message: 'slow down' } }));
      if (path === '/bad') return res.writeHead(400).end('plain words');
      if (path === '/broken') return res.writeHead(200).end('{"a":');
      // Long past the timeouts below (undici checks its timers about once a second).
      if (path === '/slow') return setTimeout(() => res.writeHead(200).end('{}'), 3_000);
      if (path === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"a":');
        return setTimeout(() => res.destroy(), 5);
      }
      // Answers written byte by byte as some servers send them, in pieces split at awkward places.
      const raw = RAW[path];
      if (raw) return writeSlowly(req.socket, raw);
      res.writeHead(404).end('{"error":"no such path"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Raw answers (each closes its connection): what Node's own server would never send. */
const RAW: Record<string, string[]> = {
  '/raw-chunked': [
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n5;ext=1\r',
    '\n{"a":\r\n3\r\n[1,\r\n',
    '2\r\n2]\r\n1\r\n}\r\n0\r\nx-trailer: 1\r\n',
    '\r\n',
  ],
  '/raw-http10': ['HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"old":', 'true}'],
  '/raw-split-head': [
    'HTTP/1.1 429 Too Many Requests\r\nretry-after: 3\r\ncontent-le',
    'ngth: 2\r\nconnection: close\r\n',
    '\r\n{}',
  ],
};

function writeSlowly(socket: import('node:net').Socket, parts: string[]): void {
  const [first, ...rest] = parts;
  if (first === undefined) return void socket.end();
  socket.write(first);
  setTimeout(() => writeSlowly(socket, rest), 3);
}

const pool = createUpstreamPool();
afterAll(() => pool.close());

/** The old way: postUpstream, then the body as JSON. */
async function viaStream(config: UpstreamConfig, path: string, signal?: AbortSignal): Promise<unknown> {
  const res = await postUpstream(config, path, { 'x-test': 'yes' }, { q: 1 }, signal);
  return res.body.json();
}

/** An outcome both ways can be compared by: the value, or the error's kind and what it says. */
async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { value: await p };
  } catch (err) {
    if (err instanceof UpstreamError) return { upstream: err.status, message: err.message, retryAfter: err.retryAfter };
    return { error: (err as Error).name, code: (err as { code?: string }).code };
  }
}

describe('postUpstreamJson answers as postUpstream followed by body.json()', () => {
  const cases = [
    '/ok',
    '/bom',
    '/chunked',
    '/limited',
    '/bad',
    '/broken',
    '/cut',
    '/nowhere',
    '/raw-chunked',
    '/raw-http10',
    '/raw-split-head',
  ];
  for (const path of cases) {
    it(`for ${path}`, async () => {
      const config = { baseUrl: base, pool, timeoutMs: 2_000 };
      const expected = await outcome(viaStream(config, path));
      expect(await outcome(postUpstreamJson(config, path, { 'x-test': 'yes' }, { q: 1 }))).toEqual(expected);
    });
  }

  it('fails with a 502 once the answer passes its cap, at and past the bound', async () => {
    const size = Buffer.byteLength(JSON.stringify({ echo: { q: 1 }, ü: 'ü' }));
    expect(await postUpstreamJson({ baseUrl: base, pool }, '/ok', {}, { q: 1 }, undefined, size)).toEqual({
      echo: { q: 1 },
      ü: 'ü',
    });
    expect(
      await outcome(postUpstreamJson({ baseUrl: base, pool }, '/ok', {}, { q: 1 }, undefined, size - 1)),
    ).toMatchObject({ upstream: 502, message: expect.stringContaining('larger than') });
  });

  it('sends the same request: path under the base URL, headers and JSON body', async () => {
    seen.length = 0;
    await postUpstreamJson({ baseUrl: base, pool }, '/ok', { authorization: 'Bearer up' }, { q: [1, 'é'] });
    expect(seen[0]).toMatchObject({
      url: '/v1/ok',
      body: '{"q":[1,"é"]}',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer up',
      },
    });
  });

  it('on a timeout, an unreachable upstream and an abort', { timeout: 15_000 }, async () => {
    const slow = { baseUrl: base, pool, timeoutMs: 200 };
    const [timedOut, timedOutBefore] = await Promise.all([
      outcome(postUpstreamJson(slow, '/slow', {}, {})),
      outcome(viaStream(slow, '/slow')),
    ]);
    expect(timedOut).toEqual(timedOutBefore);
    expect(timedOut).toMatchObject({ upstream: -1 });
    const closed = { baseUrl: 'http://127.0.0.1:9/v1', pool };
    expect(await outcome(postUpstreamJson(closed, '/ok', {}, {}))).toEqual(await outcome(viaStream(closed, '/ok')));
    expect(await outcome(postUpstreamJson(closed, '/ok', {}, {}))).toMatchObject({ upstream: 0 });
    const config = { baseUrl: base, pool };
    for (const when of [0, 50]) {
      const a = new AbortController();
      setTimeout(() => a.abort(), when);
      const [aborted, abortedBefore] = await Promise.all([
        outcome(postUpstreamJson(config, '/slow', {}, {}, a.signal)),
        outcome(viaStream(config, '/slow', a.signal)),
      ]);
      expect(aborted).toEqual(abortedBefore);
      expect(aborted).toMatchObject({ error: 'AbortError' });
    }
    const gone = AbortSignal.abort();
    expect(await outcome(postUpstreamJson(config, '/ok', {}, {}, gone))).toEqual(
      await outcome(viaStream(config, '/ok', gone)),
    );
  });
});
