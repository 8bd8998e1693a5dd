import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Http1Failure, Http1Pool } from '../../src/server/providers/http1-json.js';

// The gateway's HTTP/1.1 client for whole JSON answers: connections kept, limited, closed.
let server: http.Server;
let origin: string;
let connections = 0;
/** Answers the call to /hold, which waits for the test. */
let held: (() => void) | undefined;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/hold') return void (held = () => res.writeHead(200, { 'content-length': '2' }).end('{}'));
      const wait = req.url === '/slow' ? 30 : 0;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url, body })), wait);
    });
  });
  server.on('connection', () => connections++);
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (pool: Http1Pool, path: string, body = '{"q":1}') => pool.request({ origin, path, headers: { 'content-type': 'application/json' }, body, timeoutMs: 2_000 });

describe('Http1Pool', () => {
  it('keeps one connection for calls made one after the other', async () => {
    const pool = new Http1Pool({ keepAliveMs: 5_000, connections: 8 });
    const before = connections;
    for (let i = 0; i < 5; i++) {
      const res = await post(pool, `/n${i}`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString())).toEqual({ url: `/n${i}`, body: '{"q":1}' });
    }
    expect(connections - before).toBe(1);
    await pool.close();
  });

  it('opens no more connections than allowed; the other calls wait their turn', async () => {
    const pool = new Http1Pool({ keepAliveMs: 5_000, connections: 2 });
    const before = connections;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(pool, '/slow', `{"i":${i}}`)));
    expect(answers.map((a) => JSON.parse(a.body.toString()).body)).toEqual(Array.from({ length: 6 }, (_, i) => `{"i":${i}}`));
    expect(connections - before).toBe(2);
    await pool.close();
  });

  it('lets a call aborted while it waits for a connection leave at once', async () => {
    const pool = new Http1Pool({ keepAliveMs: 5_000, connections: 1 });
    held = undefined;
    // The one connection stays busy until the test answers /hold.
    const first = post(pool, '/hold');
    const abort = new AbortController();
    const waiting = pool.request({ origin, path: '/ok', headers: {}, body: '', timeoutMs: 5_000, signal: abort.signal });
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ status: 0, cause: { name: 'AbortError' } });
    const answer = () => held;
    while (!answer()) await new Promise((r) => setTimeout(r, 5));
    answer()!();
    expect((await first).status).toBe(200);
    expect((await post(pool, '/after')).status).toBe(200);
    await pool.close();
  });

  it('drops a connection the server closed while idle, and calls again on a new one', async () => {
    const pool = new Http1Pool({ keepAliveMs: 5_000, connections: 8 });
    const short = http.createServer((_req, res) => res.writeHead(200, { 'content-length': '2' }).end('{}'));
    short.keepAliveTimeout = 30;
    await new Promise<void>((r) => short.listen(0, '127.0.0.1', () => r()));
    const at = `http://127.0.0.1:${(short.address() as AddressInfo).port}`;
    const call = () => pool.request({ origin: at, path: '/', headers: {}, body: '', timeoutMs: 2_000 });
    expect((await call()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 150));
    expect((await call()).status).toBe(200);
    await pool.close();
    await new Promise<void>((r) => short.close(() => r()));
  });

  it('lets calls under way finish on close, and refuses new ones', async () => {
    const pool = new Http1Pool({ keepAliveMs: 5_000, connections: 8 });
    const pending = post(pool, '/slow');
    const closed = pool.close();
    expect((await pending).status).toBe(200);
    await closed;
    await expect(post(pool, '/ok')).rejects.toBeInstanceOf(Http1Failure);
  });

  it('speaks TLS to an https origin, checking its certificate', async () => {
    const tlsServer = https.createServer({ cert: TEST_CERT, key: TEST_KEY }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ secure: true, body })));
    });
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', () => r()));
    const port = (tlsServer.address() as AddressInfo).port;
    const call = (pool: Http1Pool, host: string) => pool.request({ origin: `https://${host}:${port}`, path: '/', headers: {}, body: '{"q":1}', timeoutMs: 2_000 });
    const trusting = new Http1Pool({ keepAliveMs: 5_000, connections: 8, tls: { ca: TEST_CERT } });
    for (const host of ['localhost', '127.0.0.1']) {
      const res = await call(trusting, host);
      expect(JSON.parse(res.body.toString())).toEqual({ secure: true, body: '{"q":1}' });
    }
    // Without the test CA the certificate is refused, before any answer.
    const strict = new Http1Pool({ keepAliveMs: 5_000, connections: 8 });
    await expect(call(strict, 'localhost')).rejects.toMatchObject({ status: 0, cause: { code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY/) } });
    await Promise.all([trusting.close(), strict.close()]);
    await new Promise<void>((r) => tlsServer.close(() => r()));
  });

  it('refuses a header value that would split the request', async () => {
    const pool = new Http1Pool({ keepAliveMs: 5_000, connections: 8 });
    await expect(pool.request({ origin, path: '/', headers: { authorization: 'Bearer x\r\nx-evil: 1' }, body: '', timeoutMs: 1_000 })).rejects.toMatchObject({ cause: { code: 'UND_ERR_INVALID_ARG' } });
    await pool.close();
  });
});

// A self-signed certificate for localhost and 127.0.0.1, valid for a century: for this test only.
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIURJ75G2ilZNZwV0g6It33uKVnp40wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzAyNTIyNVoYDzIxMjYxMDMw
MDI1MjI1WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARinFJMjxB1z4Fn5Qu9qX2ESQE5szJDPDxSLdqcLUYUii3+U5x+bl8F
5mmaUej9m0wK4zpJHrMK5OBPPJ+RRIvOo28wbTAdBgNVHQ4EFgQUyu/6AueyfRwc
tYa6gOTmgGnZRSkwHwYDVR0jBBgwFoAUyu/6AueyfRwctYa6gOTmgGnZRSkwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIhAMZp9E9SPDaIlr7QvURePu9rU6HiqKYmqvkioDiBxF84AiB7
mf6udASiXL0va7K75yw/wgQTpMEPEaqgDwrYKRf+GQ==
-----END CERTIFICATE-----`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgaZUGAb4qHTgWuiqh
TirQSb7/yDHGKqnVQDAOtOQx5quhRANCAARinFJMjxB1z4Fn5Qu9qX2ESQE5szJD
PDxSLdqcLUYUii3+U5x+bl8F5mmaUej9m0wK4zpJHrMK5OBPPJ+RRIvO
-----END PRIVATE KEY-----`;
