import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 32: the facet_session cookie is a session of its own (not the access token): it works on the
 * artifact resource until logout, is refused after it, and is never accepted where a bearer access
 * token or an API key is required.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

async function login(): Promise<string> {
  const res = await p.fetch('/auth/session-cookie', {
    method: 'POST',
    headers: { Authorization: `Bearer ${p.boot.access_token}` },
  });
  expect(res.status).toBe(204);
  const set = res.headers.get('set-cookie')!;
  // A session lasts at most 7 days, well under the 30-day access token.
  const maxAge = Number(/Max-Age=(\d+)/.exec(set)![1]);
  expect(maxAge).toBeGreaterThan(7 * 86_400 - 60);
  expect(maxAge).toBeLessThanOrEqual(7 * 86_400);
  return set.split(';')[0];
}

/** The route that takes the cookie; a task that does not exist answers 404 once the caller is known. */
const resource = (headers: Record<string, string>) =>
  p.fetch('/tasks/task_none/artifact-files/resource?path=a.png', { headers });

describe('the session cookie', () => {
  it('is a session of its own, usable until logout and refused after it', async () => {
    const cookie = await login();
    const value = cookie.slice('facet_session='.length);
    expect(value).not.toBe(p.boot.access_token);
    expect(value).toMatch(/^fs_/);
    expect((await resource({ cookie })).status).toBe(404);

    // Logout from another "browser" copy of the cookie: the server forgets the session.
    const out = await p.fetch('/auth/session-cookie', { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/facet_session=;.*Max-Age=0/);
    const after = await resource({ cookie });
    expect(after.status).toBe(401);
    expect(await after.text()).toMatch(/session has ended/);

    // A second login gives a new session; the first one stays ended.
    const again = await login();
    expect(again).not.toBe(cookie);
    expect((await resource({ cookie: again })).status).toBe(404);
    expect((await resource({ cookie })).status).toBe(401);
  });

  it('is never accepted as a bearer token, an API key, or for key creation', async () => {
    const value = (await login()).slice('facet_session='.length);
    const bearer = { Authorization: `Bearer ${value}` };
    expect((await p.fetch('/tasks', { headers: bearer })).status).toBe(401);
    expect((await p.fetch('/auth/whoami', { headers: bearer })).status).toBe(401);
    expect((await resource(bearer)).status).toBe(401);
    expect((await p.fetch('/tasks', { headers: { 'X-API-Key': value } })).status).toBe(401);
    const create = await p.fetch('/auth/api-keys', {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'from a session' }),
    });
    expect(create.status).toBe(401);
    // The cookie itself on the key routes (which take a bearer access token only) is no credential.
    const viaCookie = await p.fetch('/auth/api-keys', {
      method: 'POST',
      headers: { cookie: `facet_session=${value}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'from a cookie' }),
    });
    expect(viaCookie.status).toBe(401);
    expect((await p.fetch('/v2/chat', { method: 'POST', headers: bearer })).status).toBe(401);
  });

  it('refuses a cookie holding the access token itself (what the cookie used to carry)', async () => {
    const res = await resource({ cookie: `facet_session=${p.boot.access_token}` });
    expect(res.status).toBe(401);
    // The token still works as a bearer token, where it belongs.
    expect((await resource({ Authorization: `Bearer ${p.boot.access_token}` })).status).toBe(404);
  });

  it('logout without a cookie, or with an unknown one, still answers 204', async () => {
    expect((await p.fetch('/auth/session-cookie', { method: 'DELETE' })).status).toBe(204);
    expect(
      (await p.fetch('/auth/session-cookie', { method: 'DELETE', headers: { cookie: 'facet_session=fs_unknown' } }))
        .status,
    ).toBe(204);
  });
});
