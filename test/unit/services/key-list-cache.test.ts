import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { findLiveKeyByHash } from '../../../src/server/store/api-keys.repo.js';
import { hashSecret } from '../../../src/server/auth/secrets.js';
import * as keys from '../../../src/server/services/keys.service.js';
import { touchKey } from '../../../src/server/auth/key-use.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

describeOnStores('the key list and its answer cache', (stores) => {
  it('shows every change to a key on the very next list', async () => {
    const s = await stores.open();
    opened.push(s);
    let clock = Date.parse('2026-02-01T00:00:00Z');
    const ctx = { db: s.db, now: () => new Date((clock += 61_000)) };
    await insertUser(s.db, {
      id: 'u1',
      name: 'u1',
      role: 'user',
      plan: 'free',
      credits: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const list = async () =>
      JSON.parse((await keys.listKeys(ctx, { userId: 'u1' })).text) as Array<{
        id: string;
        name: string;
        status: string;
        last_used_at: string | null;
      }>;

    expect(await list()).toEqual([]);
    const a = await keys.createKey(ctx, { userId: 'u1', name: 'first' });
    expect((await list()).map((k) => k.name)).toEqual(['first']);
    await keys.setFrozen(ctx, a.id, true);
    expect((await list())[0].status).toBe('frozen');
    await keys.setFrozen(ctx, a.id, false);
    expect((await list())[0].status).toBe('active');
    const row = await findLiveKeyByHash(s.db, hashSecret(a.key));
    await touchKey(ctx, row!);
    expect((await list())[0].last_used_at).not.toBeNull();
    await keys.createKey(ctx, { userId: 'u1', name: 'second' });
    expect((await list()).map((k) => k.name)).toEqual(['first', 'second']);
    await keys.deleteKey(ctx, a.id, 'u1');
    expect((await list()).map((k) => k.name)).toEqual(['second']);
  });
});
