import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/client/transport.js';
import { ApiError } from '../../src/client/errors.js';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('transport', () => {
  it('retries 429 and 503 honouring Retry-After, then succeeds', async () => {
    const statuses = [429, 503, 200];
    const seen: Array<string | undefined> = [];
    const url = await serve((req, res) => {
      seen.push(req.headers['x-api-key'] as string);
      const status = statuses.shift()!;
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': status === 429 ? '2' : '0' });
      res.end(JSON.stringify(status === 200 ? { ok: true } : { detail: 'slow down' }));
    });
    const waits: number[] = [];
    const t = createTransport({
      baseUrl: url,
      credentials: { apiKey: 'fk_x' },
      retries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(await t.call({ method: 'GET', path: '/tasks', auth: 'token-or-key' })).toEqual({ ok: true });
    expect(seen).toEqual(['fk_x', 'fk_x', 'fk_x']);
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThan(2100);
    expect(waits[1]).toBeLessThan(100);
  });

  it('gives up after the bounded number of retries with a typed error', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1', 'x-request-id': 'req_abc' });
      res.end(JSON.stringify({ status: 429, code: 'RATE_LIMITED', message: 'limit 10/min', request_id: 'req_abc' }));
    });
    const t = createTransport({ baseUrl: url, credentials: { apiKey: 'k' }, retries: 1, sleep: async () => {} });
    const err = await t.call({ method: 'POST', path: '/v2/chat', auth: 'bearer-key', body: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', requestId: 'req_abc', retryAfterSeconds: 1 });
    expect(calls).toBe(2);
  });

  it('redacts credentials in debug lines', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    const lines: string[] = [];
    const t = createTransport({
      baseUrl: url,
      credentials: { apiKey: 'fk_secret', adminKey: 'fadm_secret' },
      debug: (l) => lines.push(l),
    });
    await t.call({ method: 'GET', path: '/admin/api-key-usage', auth: 'admin-with-admin-key' });
    expect(lines.join('\n')).not.toMatch(/secret/);
    expect(lines[0]).toContain('"x-api-key":"[redacted]"');
  });

  it('names the missing credential instead of sending a call that must fail', async () => {
    const t = createTransport({ baseUrl: 'http://127.0.0.1:9', credentials: {} });
    await expect(t.call({ method: 'GET', path: '/auth/api-keys', auth: 'access-token' })).rejects.toThrow(
      /access token/,
    );
  });
});
