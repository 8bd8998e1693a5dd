import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import * as keys from '../../../src/server/services/keys.service.js';
import { auditPage, pruneAudit } from '../../../src/server/services/audit.service.js';
import { recordExpiredKeys } from '../../../src/server/services/key-expiry-audit.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const DAY = 86_400_000;

describeOnStores('audit entries: retention, expiry and atomicity', (stores) => {
  async function setup() {
    const s = await stores.open();
    opened.push(s);
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const ctx = { db: s.db, now: () => new Date(clock) };
    const advance = (ms: number) => (clock += ms);
    await insertUser(s.db, {
      id: 'u1',
      name: 'u1',
      role: 'user',
      plan: 'free',
      credits: 0,
      created_at: '2025-12-01T00:00:00.000Z',
    });
    const actions = async () => (await auditPage(ctx, { limit: 500 })).entries.map((e) => e.action);
    return { s, ctx, advance, actions };
  }

  it('the sweep deletes exactly the entries older than the retention, by the injected clock', async () => {
    const { ctx, advance, actions } = await setup();
    const old = await keys.createKey(ctx, { userId: 'u1', name: 'old' }); // day 0
    advance(10 * DAY);
    await keys.setFrozen(ctx, old.id, true); // day 10
    advance(20 * DAY); // day 30
    expect(await pruneAudit(ctx, 30)).toBe(0); // day 0 is exactly 30 days old: kept
    advance(1);
    expect(await pruneAudit(ctx, 30)).toBe(1);
    expect(await actions()).toEqual(['key.frozen']);
    advance(365 * DAY);
    expect(await pruneAudit(ctx, 365)).toBe(1);
    expect(await actions()).toEqual([]);
  });

  it('records each key expiry once, at the first sweep after it', async () => {
    const { ctx, advance, actions } = await setup();
    const k = await keys.createKey(ctx, { userId: 'u1', name: 'short', expiresInDays: 1 });
    expect(await recordExpiredKeys(ctx)).toBe(0);
    advance(DAY + 1);
    expect(await recordExpiredKeys(ctx)).toBe(1);
    expect(await recordExpiredKeys(ctx)).toBe(0);
    const [entry] = (await auditPage(ctx, { limit: 1, action: 'key.expired' })).entries;
    expect(entry).toMatchObject({
      action: 'key.expired',
      actor: { kind: 'system' },
      target: { type: 'api_key', id: k.id },
      subject_user_id: 'u1',
    });
    expect(await actions()).toEqual(['key.expired', 'key.created']);
  });

  it('a change whose entry cannot be written does not happen (one transaction)', async () => {
    const { s, ctx, actions } = await setup();
    const k = await keys.createKey(ctx, { userId: 'u1', name: 'guarded' });
    // The entry's insert fails (the table is gone): the freeze must roll back with it.
    await s.db.schema.alterTable('audit_log').renameTo('audit_log_away').execute();
    await expect(keys.setFrozen(ctx, k.id, true)).rejects.toThrow();
    await s.db.schema.alterTable('audit_log_away').renameTo('audit_log').execute();
    const row = await s.db.selectFrom('api_keys').select('status').where('id', '=', k.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    expect(await actions()).toEqual(['key.created']);
  });
});
