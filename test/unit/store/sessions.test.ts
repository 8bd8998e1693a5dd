import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { setSetting } from '../../../src/server/store/settings.repo.js';
import {
  endSession,
  sessionUser,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  startSession,
} from '../../../src/server/auth/sessions.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3600_000;
/** An access token that outlives every session here (30 days), in seconds. */
const TOKEN_EXP = (T0 + 30 * 24 * HOUR) / 1000;

describeOnStores('browser sessions', (stores) => {
  /** A store with one user and a clock the test moves. */
  async function setup() {
    const s = await stores.open();
    opened.push(s);
    await insertUser(s.db, {
      id: 'u1',
      name: 'u1',
      role: 'user',
      plan: 'free',
      credits: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const clock = { at: T0 };
    return { s, clock, ctx: { db: s.db, now: () => new Date(clock.at) } };
  }

  it('stores only a hash of the value, and a logout refuses it from then on', async () => {
    const { s, ctx } = await setup();
    const { value, maxAgeSeconds } = await startSession(ctx, 'u1', TOKEN_EXP);
    expect(maxAgeSeconds).toBe(SESSION_MAX_MS / 1000);
    const rows = await s.db.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(value);
    expect((await sessionUser(ctx, value)).id).toBe('u1');
    await endSession(ctx, value);
    await expect(sessionUser(ctx, value)).rejects.toMatchObject({ code: 'INVALID_SESSION', status: 401 });
    expect(await s.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });

  it('ends after the idle time without use, and use keeps it alive up to its absolute end', async () => {
    const { clock, ctx } = await setup();
    const idle = await startSession(ctx, 'u1', TOKEN_EXP);
    const busy = await startSession(ctx, 'u1', TOKEN_EXP);
    // Just under the idle time: both still work; `busy` is used every few hours from here on.
    clock.at += SESSION_IDLE_MS - 60_000;
    expect((await sessionUser(ctx, busy.value)).id).toBe('u1');
    clock.at += 60_000;
    await expect(sessionUser(ctx, idle.value)).rejects.toThrow(/unused for too long/);
    while (clock.at + 6 * HOUR < T0 + SESSION_MAX_MS) {
      clock.at += 6 * HOUR;
      expect((await sessionUser(ctx, busy.value)).id).toBe('u1');
    }
    clock.at = T0 + SESSION_MAX_MS;
    await expect(sessionUser(ctx, busy.value)).rejects.toThrow(/lifetime is over/);
  });

  it('never outlives the access token it was started with', async () => {
    const { clock, ctx } = await setup();
    const tokenEnd = (T0 + 2 * HOUR) / 1000;
    const { value, maxAgeSeconds } = await startSession(ctx, 'u1', tokenEnd);
    expect(maxAgeSeconds).toBe(2 * 3600);
    clock.at += 2 * HOUR;
    await expect(sessionUser(ctx, value)).rejects.toMatchObject({ code: 'INVALID_SESSION' });
  });

  it('drops the ended sessions of a user at their next login', async () => {
    const { s, clock, ctx } = await setup();
    await startSession(ctx, 'u1', TOKEN_EXP);
    await startSession(ctx, 'u1', TOKEN_EXP);
    clock.at += SESSION_IDLE_MS + 1;
    const fresh = await startSession(ctx, 'u1', TOKEN_EXP);
    expect(await s.db.selectFrom('sessions').select('id').execute()).toHaveLength(1);
    expect((await sessionUser(ctx, fresh.value)).id).toBe('u1');
  });

  it('refuses an unknown value', async () => {
    const { ctx } = await setup();
    await expect(sessionUser(ctx, 'fs_never-made')).rejects.toThrow(/session has ended/);
  });

  it('a session opened with an API key ends when the key expires (and never outlives it), is frozen or deleted; one opened otherwise does not care', async () => {
    const { s, clock, ctx } = await setup();
    const key = (id: string, expires_at: string | null) => ({
      id,
      user_id: 'u1',
      name: id,
      prefix: `fk_${id}`,
      hash: `hash-${id}`,
      status: 'active' as const,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at,
      frozen_at: null,
      last_used_at: null,
      deleted_at: null,
    });
    const soon = key('k_soon', new Date(T0 + 2 * HOUR).toISOString());
    const frozen = key('k_frozen', null);
    const deleted = key('k_deleted', null);
    await s.db.insertInto('api_keys').values([soon, frozen, deleted]).execute();
    const bySoon = await startSession(ctx, 'u1', TOKEN_EXP, soon);
    expect(bySoon.maxAgeSeconds).toBe(2 * 3600);
    const byFrozen = await startSession(ctx, 'u1', TOKEN_EXP, frozen);
    const byDeleted = await startSession(ctx, 'u1', TOKEN_EXP, deleted);
    const byToken = await startSession(ctx, 'u1', TOKEN_EXP);
    for (const x of [bySoon, byFrozen, byDeleted, byToken]) expect((await sessionUser(ctx, x.value)).id).toBe('u1');
    // Changed behind the service's back (another instance, a direct write): still seen at the next use.
    await s.db.updateTable('api_keys').set({ status: 'frozen' }).where('id', '=', 'k_frozen').execute();
    await s.db
      .updateTable('api_keys')
      .set({ deleted_at: new Date(T0).toISOString() })
      .where('id', '=', 'k_deleted')
      .execute();
    await expect(sessionUser(ctx, byFrozen.value)).rejects.toMatchObject({
      code: 'INVALID_SESSION',
      message: expect.stringMatching(/key it was opened with is frozen/),
    });
    await expect(sessionUser(ctx, byDeleted.value)).rejects.toMatchObject({
      message: expect.stringMatching(/deleted/),
    });
    // Unfrozen, the key does not bring its ended session back.
    await s.db.updateTable('api_keys').set({ status: 'active' }).where('id', '=', 'k_frozen').execute();
    await expect(sessionUser(ctx, byFrozen.value)).rejects.toMatchObject({ code: 'INVALID_SESSION' });
    // The key's expiry moved later than the session's own end: the key's end still holds.
    await s.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(T0 + HOUR).toISOString() })
      .where('id', '=', 'k_soon')
      .execute();
    clock.at = T0 + HOUR;
    await expect(sessionUser(ctx, bySoon.value)).rejects.toMatchObject({ message: expect.stringMatching(/expired/) });
    expect((await sessionUser(ctx, byToken.value)).id).toBe('u1');
  });

  it('a session opened with the admin key ends when the deployment admin key is replaced', async () => {
    const { s, ctx } = await setup();
    await setSetting(s.db, 'admin_key_hash', 'hash-of-the-first-admin-key');
    const byAdmin = await startSession(ctx, 'u1', TOKEN_EXP, null, 'hash-of-the-first-admin-key');
    const byToken = await startSession(ctx, 'u1', TOKEN_EXP);
    expect((await sessionUser(ctx, byAdmin.value)).id).toBe('u1');
    // `facet serve --admin-key NEW` at the next start:
    await setSetting(s.db, 'admin_key_hash', 'hash-of-another-admin-key');
    await expect(sessionUser(ctx, byAdmin.value)).rejects.toMatchObject({
      code: 'INVALID_SESSION',
      message: expect.stringMatching(/admin key it was opened with has been replaced/),
    });
    expect((await sessionUser(ctx, byToken.value)).id).toBe('u1');
  });
});
