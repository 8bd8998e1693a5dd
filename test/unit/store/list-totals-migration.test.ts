import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { MIGRATIONS } from '../../../src/server/store/migrations.js';
import { openStore } from '../../../src/server/store/store.js';
import { pageVisible } from '../../../src/server/store/livedocs.repo.js';
import { TEST_DATABASE_URL, createTestDatabase, dropTestDatabases } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/platform.js';

afterAll(dropTestDatabases);

const at = '2026-01-01T00:00:00.000Z';
const before0007 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0007'));

/** A database as the version before 0007 left it, holding LiveDocs; then opened by this version. */
async function upgradeWithLiveDocs(raw: Kysely<any>, reopen: () => ReturnType<typeof openStore>) {
  const { error } = await new Migrator({ db: raw, provider: { getMigrations: async () => before0007 } }).migrateToLatest();
  expect(error).toBeUndefined();
  await raw.insertInto('users').values({ id: 'u1', name: 'one', role: 'user', plan: 'free', credits: 0, created_at: at }).execute();
  for (let i = 0; i < 5; i++) {
    await raw.insertInto('livedocs').values({ id: `ld${i}`, owner_id: 'u1', name: `d${i}`, description: '', icon: '', created_at: at, modified_at: at }).execute();
  }
  await raw.destroy();
  const store = await reopen();
  try {
    expect((await pageVisible(store.db, 'u1', { offset: 0, limit: 2 })).total).toBe(5);
  } finally {
    await store.close();
  }
}

describe('migration 0007_list_totals', () => {
  it('counts the LiveDocs a SQLite data dir already has, so totals are right after an upgrade', async () => {
    const dir = tempDir('upgrade');
    const file = path.join(dir, 'facet.db');
    await upgradeWithLiveDocs(new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }), () => openStore({ dataDir: dir }));
  });

  it.skipIf(!TEST_DATABASE_URL)('does the same on PostgreSQL', async () => {
    const url = await createTestDatabase();
    await upgradeWithLiveDocs(new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) }), () => openStore({ dataDir: null, databaseUrl: url }));
  });
});
