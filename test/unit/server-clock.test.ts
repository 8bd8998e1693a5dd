import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server on the given clock, and a key of its bootstrap user that an administrator made to expire in a day. */
async function serverWithExpiringKey(now: () => Date) {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent', now });
  const admin = { 'x-api-key': server.bootstrap.data.api_key!, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/admin/api-keys`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ user_id: server.bootstrap.data.user_id, expires_in_days: 1 }),
  }).then((r) => r.json());
  return { admin, created };
}

describe('time-dependent credentials, on an injected clock', () => {
  it('a key past its expiry gets 401 EXPIRED_API_KEY; a token past its expiry is refused', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    server = await startServer({
      memory: true,
      port: 0,
      logLevel: 'silent',
      now: () => now,
      accessTokenTtlSeconds: 3600,
    });
    const token = server.bootstrap.data.access_token;
    const created = await fetch(`${server.url}/auth/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'short', expires_in_days: 1 }),
    }).then((r) => r.json());
    expect(created.expires_at).toBe('2026-01-02T00:00:00.000Z');

    const v2 = () => fetch(`${server!.url}/v2/x`, { headers: { authorization: `Bearer ${created.key}` } });
    expect((await v2()).status).toBe(404);

    now = new Date('2026-01-02T00:00:01Z');
    const expired = await v2();
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ status: 'error', code: 'EXPIRED_API_KEY' });

    const tokenCall = await fetch(`${server.url}/auth/api-keys`, { headers: { authorization: `Bearer ${token}` } });
    expect(tokenCall.status).toBe(401);
    expect(await tokenCall.json()).toEqual({ detail: 'The access token has expired', code: 'INVALID_ACCESS_TOKEN' });
  });

  it('a frozen key that has also expired reports the expiry first', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const { admin, created } = await serverWithExpiringKey(() => now);
    await fetch(`${server!.url}/admin/api-keys/${created.id}/freeze`, {
      method: 'POST',
      headers: { 'x-api-key': admin['x-api-key'] },
    });
    now = new Date('2026-01-03T00:00:00Z');
    const r = await fetch(`${server!.url}/v2/x`, { headers: { authorization: `Bearer ${created.key}` } });
    expect((await r.json()).code).toBe('EXPIRED_API_KEY');
  });
});

// A request whose key, user and answer are all cached is served without a promise (register.ts);
// these go through a contract route with the caches warm, where that path is taken.
describe('a key refused on the very next request to a route, with every cache warm', () => {
  const list = (key: string) => fetch(`${server!.url}/v2/livedocs`, { headers: { authorization: `Bearer ${key}` } });

  it('expiry, within the minute the last use is kept to', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const { created } = await serverWithExpiringKey(() => now);
    // The last use is recorded ten seconds before the expiry; the next call, a second after it,
    // finds a recent last use and every row cached.
    now = new Date('2026-01-01T23:59:50Z');
    expect((await list(created.key)).status).toBe(200);
    expect((await list(created.key)).status).toBe(200);
    now = new Date('2026-01-02T00:00:01Z');
    const expired = await list(created.key);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ status: 'error', code: 'EXPIRED_API_KEY' });
  });

  it('freeze, then delete', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const { admin, created } = await serverWithExpiringKey(() => now);
    expect((await list(created.key)).status).toBe(200);
    expect((await list(created.key)).status).toBe(200);
    await fetch(`${server!.url}/admin/api-keys/${created.id}/freeze`, {
      method: 'POST',
      headers: { 'x-api-key': admin['x-api-key'] },
    });
    const frozen = await list(created.key);
    expect(frozen.status).toBe(403);
    expect(await frozen.json()).toMatchObject({ code: 'KEY_FROZEN' });
    await fetch(`${server!.url}/admin/api-keys/${created.id}/unfreeze`, {
      method: 'POST',
      headers: { 'x-api-key': admin['x-api-key'] },
    });
    expect((await list(created.key)).status).toBe(200);
    const token = server!.bootstrap.data.access_token;
    await fetch(`${server!.url}/auth/api-keys/${created.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    const gone = await list(created.key);
    expect(gone.status).toBe(401);
    expect(await gone.json()).toMatchObject({ code: 'INVALID_API_KEY' });
  });
});
