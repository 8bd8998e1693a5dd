import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

async function call(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  const res = await p.fetch(path, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, requestId: res.headers.get('x-request-id') };
}

describe('spec part 5 on /v2 and /v1/beta: Bearer <API_KEY>, exact codes in the v2 envelope', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['no header', {}, 'MISSING_AUTHORIZATION'],
    ['empty header', { Authorization: '' }, 'MISSING_AUTHORIZATION'],
    ['lower-case scheme', { Authorization: 'bearer KEY' }, 'MALFORMED_AUTHORIZATION'],
    ['two spaces', { Authorization: 'Bearer  KEY' }, 'MALFORMED_AUTHORIZATION'],
    ['quoted key', { Authorization: 'Bearer "KEY"' }, 'MALFORMED_AUTHORIZATION'],
    ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }, 'MALFORMED_AUTHORIZATION'],
    ['scheme only', { Authorization: 'Bearer' }, 'MALFORMED_AUTHORIZATION'],
    ['unknown key', { Authorization: 'Bearer fk_doesnotexist' }, 'INVALID_API_KEY'],
    ['X-API-Key is not accepted on v2', { 'X-API-Key': 'KEY' }, 'MISSING_AUTHORIZATION'],
  ];
  for (const prefix of ['/v2/chat', '/v1/beta/anything']) {
    for (const [name, headers, code] of cases) {
      it(`${prefix}: ${name} -> 401 ${code}`, async () => {
        const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('KEY', p.boot.api_key)]));
        // /v2/chat takes POST; another method would be a 405 before any credential is read.
        const r = await call(prefix, h, { method: 'POST' });
        expect(r.status).toBe(401);
        if (prefix.startsWith('/v2')) {
          expect(r.body).toEqual({ status: 'error', code, message: expect.any(String), request_id: r.requestId });
        } else {
          expect(r.body).toEqual({ error: { code, message: expect.any(String) }, request_id: r.requestId });
        }
      });
    }
  }

  it('echoes the caller X-Request-Id in header and body', async () => {
    const r = await call('/v2/chat', { 'X-Request-Id': 'trace-123' }, { method: 'POST' });
    expect(r.requestId).toBe('trace-123');
    expect(r.body.request_id).toBe('trace-123');
  });
});

describe('image service and admin auth', () => {
  it('/auth/api-keys needs an access token', async () => {
    const none = await call('/auth/api-keys');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      detail: expect.stringMatching(/Authentication required/),
      code: 'MISSING_AUTHORIZATION',
    });
    const withKey = await call('/auth/api-keys', { Authorization: `Bearer ${p.boot.api_key}` });
    expect(withKey.status).toBe(401);
    expect(withKey.body.code).toBe('INVALID_ACCESS_TOKEN');
    const badToken = await call('/auth/api-keys', { Authorization: 'Bearer a.b.c' });
    expect(badToken.body.code).toBe('INVALID_ACCESS_TOKEN');
    const ok = await call('/auth/api-keys', { Authorization: `Bearer ${p.boot.access_token}` });
    expect(ok.status).toBe(200);
    expect(Array.isArray(ok.body)).toBe(true);
  });

  it('api-key-usage needs the admin key as well', async () => {
    const noAdminKey = await call('/admin/api-key-usage', { 'X-API-Key': p.boot.api_key });
    expect(noAdminKey.status).toBe(401);
    expect(noAdminKey.body.code).toBe('MISSING_AUTHORIZATION');
    const wrong = await call('/admin/api-key-usage', { 'X-API-Key': p.boot.api_key, 'X-Admin-Key': 'fadm_wrong' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ detail: 'The X-Admin-Key header is wrong', code: 'INVALID_ADMIN_KEY' });
    const right = await call('/admin/api-key-usage', { 'X-API-Key': p.boot.api_key, 'X-Admin-Key': p.boot.admin_key });
    expect(right.status).toBe(200);
    const cli = await p.cli(['admin', 'usage'], { env: { FACET_ADMIN_KEY: 'fadm_wrong' } });
    expect(cli.exitCode).toBe(3);
    expect(cli.stderr).toMatch(/INVALID_ADMIN_KEY/);
  });

  it('/admin needs X-API-Key, not a token', async () => {
    const r = await call('/admin/api-keys', { Authorization: `Bearer ${p.boot.access_token}` });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('MISSING_AUTHORIZATION');
  });

  it('/models needs nothing', async () => {
    const r = await call('/models');
    expect(r.status).toBe(200);
    expect(r.body.models.map((m: { kind: string }) => m.kind).sort()).toEqual(['illustration', 'screenshot']);
  });

  it('/api/v1 takes Bearer or X-API-Key, failing in the OpenAI error shape', async () => {
    const none = await call('/api/v1/nothing-here');
    expect(none.status).toBe(401);
    // one spelling per condition: the code is the same on every surface
    expect(none.body.error).toMatchObject({ code: 'MISSING_AUTHORIZATION', type: 'authentication_error' });
    const viaHeader = await call('/api/v1/nothing-here', { 'X-API-Key': p.boot.api_key });
    expect(viaHeader.status).toBe(404);
    const viaBearer = await call('/api/v1/nothing-here', { Authorization: `Bearer ${p.boot.api_key}` });
    expect(viaBearer.status).toBe(404);
  });

  it('the session cookie is set from the bearer token and cleared without auth', async () => {
    const res = await p.fetch('/auth/session-cookie', {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.boot.access_token}` },
    });
    expect(res.status).toBe(204);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^facet_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const cleared = await p.fetch('/auth/session-cookie', { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(cleared.headers.get('set-cookie')).toMatch(/facet_session=;.*Max-Age=0/);
  });
});

describe('validation failures answer 422 with {detail: [{loc, msg, type}]}', () => {
  const token = () => ({ Authorization: `Bearer ${p.boot.access_token}`, 'content-type': 'application/json' });
  it('a wrong type', async () => {
    const r = await call('/auth/api-keys', token(), { method: 'POST', body: JSON.stringify({ name: 5 }) });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: [{ loc: ['body', 'name'], msg: expect.any(String), type: 'invalid_type' }] });
  });
  it('out of range and unknown fields', async () => {
    const r = await call('/auth/api-keys', token(), {
      method: 'POST',
      body: JSON.stringify({ expires_in_days: 0, colour: 'red' }),
    });
    expect(r.status).toBe(422);
    const locs = r.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.expires_in_days', 'body']));
  });
  it('a missing required field on the admin create', async () => {
    const r = await call(
      '/admin/api-keys',
      { 'X-API-Key': p.boot.api_key, 'content-type': 'application/json' },
      { method: 'POST', body: '{}' },
    );
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ['body', 'user_id'], msg: 'Field required', type: 'missing' }]);
  });
  it('broken JSON', async () => {
    const r = await call('/auth/api-keys', token(), { method: 'POST', body: '{"name":' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });
  it('usage limit outside 1-500', async () => {
    for (const limit of ['0', '501', 'ten']) {
      const r = await call(`/admin/api-key-usage?limit=${limit}`, {
        'X-API-Key': p.boot.api_key,
        'X-Admin-Key': p.boot.admin_key,
      });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['query', 'limit']);
    }
    for (const limit of ['1', '500']) {
      const r = await call(`/admin/api-key-usage?limit=${limit}`, {
        'X-API-Key': p.boot.api_key,
        'X-Admin-Key': p.boot.admin_key,
      });
      expect(r.status).toBe(200);
    }
  });
  it('an unknown key id on admin freeze is 404', async () => {
    const r = await call('/admin/api-keys/key_nope/freeze', { 'X-API-Key': p.boot.api_key }, { method: 'POST' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: 'API key key_nope not found', code: 'NOT_FOUND' });
  });
});
