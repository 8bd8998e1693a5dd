import { afterAll, afterEach, expect, it, vi } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { insertUsage, sumUsageByKeyAndModel } from '../../../src/server/store/usage.repo.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const record = (i: number) => ({
  api_key_id: 'k1',
  user_id: 'u1',
  task_id: null,
  model: 'm',
  operation: 'chat',
  input_tokens: 10 + i,
  output_tokens: 5,
  cache_read_tokens: 1,
  cache_write_tokens: 0,
  web_searches: 0,
  cost_nano_usd: 1_000 + i,
  created_at: `2026-03-01T00:00:0${i}.000Z`,
});

describeOnStores('usage writes', (stores) => {
  async function store() {
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
    return s;
  }

  it('records written one after the other all reach their rollups', async () => {
    const s = await store();
    for (let i = 0; i < 3; i++) await insertUsage(s.db, record(i));
    const [sum] = await sumUsageByKeyAndModel(s.db, {});
    expect(sum).toMatchObject({
      calls: 3,
      input_tokens: 33,
      output_tokens: 15,
      cache_read_tokens: 3,
      cost_nano_usd: 3_003,
    });
  });

  it('a record written while another transaction is open is not rolled back with it', async () => {
    const s = await store();
    let carryOn!: () => void;
    const gate = new Promise<void>((resolve) => (carryOn = resolve));
    let written: Promise<void> | undefined;
    const failed = s.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('settings').values({ key: 'doomed', value: 'x' }).execute();
        // The usage record is written while this transaction holds the connection, then it fails.
        written = insertUsage(s.db, record(0));
        await gate;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await new Promise((r) => setTimeout(r, 20));
    carryOn();
    expect(await failed).toBe('rolled back');
    await written;
    expect(await s.db.selectFrom('settings').selectAll().where('key', '=', 'doomed').execute()).toEqual([]);
    expect(await s.db.selectFrom('usage_records').select(['input_tokens', 'created_at']).execute()).toEqual([
      { input_tokens: 10, created_at: record(0).created_at },
    ]);
    const [sum] = await sumUsageByKeyAndModel(s.db, {});
    expect(sum).toMatchObject({ calls: 1, input_tokens: 10 });
  });

  it('a record that breaks a constraint leaves no half: neither the record nor its rollups', async () => {
    const s = await store();
    await insertUsage(s.db, record(0));
    // user_id is NOT NULL: the record's insert fails, so the rollups (the second statement) must not move.
    await expect(insertUsage(s.db, { ...record(1), user_id: null as unknown as string })).rejects.toThrow();
    expect(await s.db.selectFrom('usage_records').select('input_tokens').execute()).toEqual([{ input_tokens: 10 }]);
    const [sum] = await sumUsageByKeyAndModel(s.db, {});
    expect(sum).toMatchObject({ calls: 1, input_tokens: 10 });
  });
});
