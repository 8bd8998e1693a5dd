import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';

/**
 * Issue 41: a path asked with a method it does not have is answered 405 with `Allow`, in the
 * surface's own error shape, before authentication and before any body is read; an unknown path
 * stays 404.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
});
afterAll(() => server?.close());

interface Answer {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<any>;
}

/** node:http rather than fetch: fetch refuses to send TRACE. */
function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: { get: (name) => (res.headers[name] as string | undefined) ?? null },
          json: async () => JSON.parse(text),
        }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('a method the path does not have', () => {
  it('is 405 with Allow in each surface’s shape, without credentials', async () => {
    const cases: Array<[string, string, string, (body: any) => void]> = [
      [
        'TRACE',
        '/v2/livedocs',
        'GET, HEAD, POST',
        (b) => expect(b).toMatchObject({ status: 'error', code: 'METHOD_NOT_ALLOWED' }),
      ],
      [
        'PUT',
        '/api/v1/chat/completions',
        'POST',
        (b) => expect(b.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', type: 'invalid_request_error' }),
      ],
      [
        'GET',
        '/api/v1/messages',
        'POST',
        (b) => expect(b).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } }),
      ],
      [
        'PATCH',
        '/tasks',
        'GET, HEAD, POST',
        (b) => expect(b).toEqual({ detail: expect.stringMatching(/PATCH/), code: 'METHOD_NOT_ALLOWED' }),
      ],
      [
        'DELETE',
        '/v1/beta/social/tweet/replies',
        'GET, HEAD',
        (b) => expect(b.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED' }),
      ],
      [
        'DELETE',
        '/v1/beta/financial/insider-trades',
        'GET, HEAD',
        (b) => expect(b).toMatchObject({ error: 'METHOD_NOT_ALLOWED' }),
      ],
      ['GET', '/api/v1/decisions', 'POST', (b) => expect(b).toMatchObject({ error: { code: 405 } })],
      ['POST', '/v2/livedocs/ld_1', 'DELETE, GET, HEAD, PUT', (b) => expect(b.code).toBe('METHOD_NOT_ALLOWED')],
      ['DELETE', '/healthz', 'GET, HEAD', (b) => expect(b.code).toBe('METHOD_NOT_ALLOWED')],
    ];
    for (const [method, path, allow, shape] of cases) {
      const res = await call(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      shape(await res.json());
    }
  });

  it('is 405 even when the body is of a type or size no route would read', async () => {
    const res = await call('/v2/livedocs', {
      method: 'PATCH',
      headers: { 'content-type': 'application/x-unknown' },
      body: 'not json at all',
    });
    expect(res.status).toBe(405);
    const bad = await call('/api/v1/responses', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(405);
    expect(bad.headers.get('allow')).toBe('POST');
  });

  it('leaves the methods a path has, HEAD of a GET and unknown paths as they were', async () => {
    expect((await call('/healthz', { method: 'HEAD' })).status).toBe(200);
    // An unknown path inside a surface still authenticates first, then is 404.
    expect((await call('/v2/nothing-here', { method: 'TRACE' })).status).toBe(401);
    const key = { authorization: `Bearer ${server.bootstrap.data.api_key}` };
    expect((await call('/v2/nothing-here', { method: 'PUT', headers: key })).status).toBe(404);
    expect((await call('/nothing', { method: 'DELETE' })).status).toBe(404);
    expect((await call('/v2/livedocs', { headers: key })).status).toBe(200);
  });
});
