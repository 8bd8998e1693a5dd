import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * /v2 bodies whose fields the spec lists refuse fields they do not know: a misspelt optional field
 * (livedoc_short_id for live_doc_short_id) would otherwise change what happens without a word.
 */
let p: Platform;
let ld: string;
let doc: any;

const auth = () => ({ Authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' });
const post = (path: string, body: unknown, method = 'POST') =>
  p.fetch(path, { method, headers: auth(), body: JSON.stringify(body) });
const livedocCount = async () =>
  (await (await p.fetch('/v2/livedocs?size=100', { headers: auth() })).json()).data.total as number;

beforeAll(async () => {
  p = await startPlatform();
  ld = (await (await post('/v2/livedocs', { name: 'typos' })).json()).data.short_id;
  doc = await (await p.fetch('/openapi.json')).json();
});
afterAll(() => p?.cleanup());

async function refused(res: Response, field: string): Promise<string> {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETER', request_id: expect.any(String) });
  expect(body.message).toContain(field);
  return body.message;
}

describe('unknown body fields', () => {
  it('POST /v2/conversations with livedoc_short_id is refused, names the real field, and creates no LiveDoc', async () => {
    const before = await livedocCount();
    const message = await refused(
      await post('/v2/conversations', { query: 'What is here?', livedoc_short_id: ld }),
      'livedoc_short_id',
    );
    expect(message).toMatch(/did you mean live_doc_short_id/);
    expect(await livedocCount()).toBe(before);
    // The documented field still works, with every other field the spec lists.
    const ok = await post('/v2/conversations', {
      query: 'What is here?',
      live_doc_short_id: ld,
      selected_resource_ids: [],
      skill_id: 's',
      accept_language: 'en',
      device_id: 'd',
      extra: { a: 1 },
      ext: { style: 'x' },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.live_doc_short_id).toBe(ld);
    expect(await livedocCount()).toBe(before);
  });

  it.each([
    ['/v2/mindmap', { query: 'q', live_doc_short_id: 'x' }, 'live_doc_short_id'],
    ['/v2/ppts', { query: 'q', live_doc_short_id: 'x' }, 'live_doc_short_id'],
    ['/v2/ppts', { query: 'q', ppt_config: { theme_id: 'x' } }, 'theme_id'],
    ['/v2/livedocs', { name: 'n', descripton: 'd' }, 'descripton'],
    [
      '/v2/ppt-themes',
      {
        title: 't',
        colors: { background: '#ffffff', text: '#000000', accent: '#ff0000', acent2: '#00ff00' },
        fonts: { heading: 'DejaVu Sans', body: 'DejaVu Sans' },
      },
      'acent2',
    ],
  ])('POST %s with an unknown field is refused', async (path, body, field) => {
    await refused(await post(path, body), field);
  });

  it('livedoc bodies: create, update, documents, URLs, retrieve and route', async () => {
    await refused(await post(`/v2/livedocs/${ld}`, { name: 'n', nmae: 'm' }, 'PUT'), 'nmae');
    await refused(await post(`/v2/livedocs/${ld}/resources/doc`, { content: 'c', titel: 't' }), 'titel');
    await refused(
      await post(`/v2/livedocs/${ld}/resources/urls`, { urls: [{ url: 'https://example.com', tile: 't' }] }),
      'tile',
    );
    await refused(
      await post(`/v2/livedocs/${ld}/resources/retrieve`, { query: 'q', resource_id: ['r'] }),
      'resource_id',
    );
    await refused(await post(`/v2/livedocs/${ld}/resources/route`, { query: 'q', max_resource: 2 }), 'max_resource');
    const made = await post(`/v2/livedocs/${ld}/resources/doc`, { title: 'Doc', content: 'Some words about typos.' });
    expect(made.status).toBe(200);
    const route = await post(`/v2/livedocs/${ld}/resources/route`, { query: 'typos', max_resources: 2 });
    expect(route.status).toBe(200);
  });

  it('the document says so: these bodies take no additional properties', () => {
    const schemaOf = (path: string) => {
      const s = doc.paths[path].post.requestBody.content['application/json'].schema;
      return s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s;
    };
    expect(schemaOf('/v2/conversations')).toMatchObject({
      additionalProperties: false,
      properties: expect.objectContaining({ live_doc_short_id: expect.any(Object) }),
    });
    expect(schemaOf('/v2/mindmap').additionalProperties).toBe(false);
  });
});
