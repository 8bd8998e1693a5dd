import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { MIGRATIONS } from '../../../src/server/store/migrations.js';
import { openStore } from '../../../src/server/store/store.js';
import { pageVisible } from '../../../src/server/store/livedocs.repo.js';
import { sumUsageByKeyAndModel } from '../../../src/server/store/usage.repo.js';
import { TEST_DATABASE_URL, createTestDatabase, dropTestDatabases } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/platform.js';

afterAll(dropTestDatabases);

const at = '2026-01-01T00:00:00.000Z';
const before0007 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0007'));

/** A database as the version before 0007 left it, holding LiveDocs and usage; then opened by this version. */
async function upgradeWithLiveDocs(raw: Kysely<any>, reopen: () => ReturnType<typeof openStore>) {
  const { error } = await new Migrator({
    db: raw,
    provider: { getMigrations: async () => before0007 },
  }).migrateToLatest();
  expect(error).toBeUndefined();
  await raw
    .insertInto('users')
    .values({ id: 'u1', name: 'one', role: 'user', plan: 'free', credits: 0, created_at: at })
    .execute();
  for (let i = 0; i < 5; i++) {
    await raw
      .insertInto('livedocs')
      .values({
        id: `ld${i}`,
        owner_id: 'u1',
        name: `d${i}`,
        description: '',
        icon: '',
        created_at: at,
        modified_at: at,
      })
      .execute();
  }
  for (const [key, cost, day] of [
    ['k1', 2_000_000_000, '01'],
    ['k1', 1_500_000_000, '02'],
    [null, 7, '02'],
  ] as const) {
    await raw
      .insertInto('usage_records')
      .values({
        api_key_id: key,
        user_id: 'u1',
        task_id: null,
        model: 'm',
        operation: 'chat',
        input_tokens: 3,
        output_tokens: 4,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        web_searches: 0,
        cost_nano_usd: cost,
        created_at: `2026-01-${day}T10:00:00.000Z`,
      })
      .execute();
  }
  await raw.destroy();
  const store = await reopen();
  try {
    expect((await pageVisible(store.db, 'u1', { offset: 0, limit: 2 })).total).toBe(5);
    const usage = await sumUsageByKeyAndModel(store.db, {});
    expect(usage.find((g) => g.api_key_id === 'k1')).toMatchObject({
      calls: 2,
      input_tokens: 6,
      cost_nano_usd: 3_500_000_000,
      first_call_at: '2026-01-01T10:00:00.000Z',
      last_call_at: '2026-01-02T10:00:00.000Z',
    });
    expect(usage.find((g) => g.api_key_id === null)).toMatchObject({ calls: 1, cost_nano_usd: 7 });
  } finally {
    await store.close();
  }
}

describe('upgrading a data dir (migrations 0007 and 0008 backfill what they keep)', () => {
  it('counts the LiveDocs and rolls up the usage a SQLite data dir already has', async () => {
    const dir = tempDir('upgrade');
    const file = path.join(dir, 'facet.db');
    await upgradeWithLiveDocs(new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }), () =>
      openStore({ dataDir: dir }),
    );
  });

  it.skipIf(!TEST_DATABASE_URL)('does the same on PostgreSQL', async () => {
    const url = await createTestDatabase();
    await upgradeWithLiveDocs(
      new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) }),
      () => openStore({ dataDir: null, databaseUrl: url }),
    );
  });
});
