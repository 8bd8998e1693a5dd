import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';

/**
 * Issue 41: a query parameter an endpoint does not take is refused, naming it, where the spec
 * lists the parameters (image service, /v2, /v1/beta); /api/v1 ignores it, since the official
 * clients add their own.
 */
let server: RunningServer;
let key: string;
beforeAll(async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  key = server.bootstrap.data.api_key!;
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string>) => fetch(`${server.url}${path}`, { headers });

describe('unknown query parameters', () => {
  it('/v2: 400 INVALID_PARAMETER naming the parameter and the one it resembles', async () => {
    const res = await get('/v2/livedocs?Page=2&size=5', { authorization: `Bearer ${key}` });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETER' });
    expect(body.message).toMatch(
      /unknown query parameter Page \(did you mean page\?\); this endpoint takes keyword, page, size/,
    );
  });

  it('image service: 422 with the parameter in loc; /v1/beta: 400 in its shape', async () => {
    const tasks = await get('/tasks?limt=5', { 'x-api-key': key });
    expect(tasks.status).toBe(422);
    expect((await tasks.json()).detail[0]).toMatchObject({ loc: ['query', 'limt'], type: 'unrecognized_keys' });
    const beta = await get('/v1/beta/social/tweet/replies?tweetId=1&since=2020', { authorization: `Bearer ${key}` });
    expect(beta.status).toBe(400);
    expect((await beta.json()).error.message).toMatch(/unknown query parameter since/);
  });

  it('known parameters still pass, and /api/v1 ignores those it does not know', async () => {
    expect((await get('/v2/livedocs?page=1&size=5', { authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await get('/tasks?limit=5', { 'x-api-key': key })).status).toBe(200);
    // The Anthropic client adds beta=true to its beta calls.
    expect((await get('/api/v1/models?limit=2&beta=true', { authorization: `Bearer ${key}` })).status).toBe(200);
    // A public signed link with a tracking tag a site appended: judged by its signature, not refused for the tag.
    const link = await get('/files/resources/res_none?expires=1&sig=a&fbclid=x', {});
    expect(link.status).not.toBe(422);
    expect(JSON.stringify(await link.json())).not.toMatch(/fbclid/);
  });

  it('the document says which operations refuse them', async () => {
    const doc = await (await get('/openapi.json', {})).json();
    expect(doc.paths['/v2/livedocs'].get.description).toMatch(/other than those listed are refused \(400\)/);
    expect(doc.paths['/tasks'].get.description).toMatch(/refused \(422\)/);
    expect(doc.paths['/api/v1/models'].get.description).toBeUndefined();
  });
});
