import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { MIGRATIONS } from '../../../src/server/store/migrations.js';
import { openStore } from '../../../src/server/store/store.js';
import { countPosts, pagePosts } from '../../../src/server/store/social/social.repo.js';
import { planSearch } from '../../../src/server/store/social/compile.js';
import { parseQuery } from '../../../src/server/providers/social/query-parse.js';
import { postRecord } from '../../../src/server/providers/social/records.js';
import { TEST_DATABASE_URL, createTestDatabase, dropTestDatabases } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/platform.js';

afterAll(dropTestDatabases);

const before0017 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0017'));
const T0 = Date.UTC(2025, 0, 1) / 1000;
const metrics = {
  favorite_count: 1,
  retweet_count: 0,
  reply_count: 0,
  quote_count: 0,
  view_count: 0,
  bookmark_count: 0,
};
const POSTS = [
  { id: '11', content: 'alpha beta #Rust @ann', created_ts: T0 + 5, lang: 'en' },
  { id: '12', content: 'alpha gamma #go', created_ts: T0 + 5, lang: 'fr' },
  { id: '13', content: 'delta #rust', created_ts: T0 + 9, lang: 'en' },
].map((p) => postRecord({ ...p, author_id: 'u1', source: 'test', metrics }));

/** Posts written as the version before 0017 wrote them; then the store is opened by this version. */
async function upgradeWithPosts(raw: Kysely<any>, reopen: () => ReturnType<typeof openStore>) {
  const { error } = await new Migrator({
    db: raw,
    provider: { getMigrations: async () => before0017 },
  }).migrateToLatest();
  expect(error).toBeUndefined();
  for (const { terms, ...row } of POSTS) {
    await raw.insertInto('social_posts').values(row).execute();
    for (const t of terms)
      await raw
        .insertInto('social_terms')
        .values({ post_id: row.id, ...t })
        .execute();
  }
  await raw.destroy();
  const store = await reopen();
  try {
    const search = async (q: string) => {
      const plan = planSearch(store.db, parseQuery(q));
      return {
        ids: (await pagePosts(store.db, plan, 'latest', undefined, 10)).map((r) => r.id),
        total: await countPosts(store.db, plan),
      };
    };
    // Words, tags, mentions and languages of posts written before 0017 are found through its index.
    expect(await search('alpha')).toEqual({ ids: ['12', '11'], total: 2 });
    expect(await search('#rust')).toEqual({ ids: ['13', '11'], total: 2 });
    expect(await search('#rust lang:en alpha')).toEqual({ ids: ['11'], total: 1 });
    expect(await search('@ann')).toEqual({ ids: ['11'], total: 1 });
    expect(await search('lang:fr')).toEqual({ ids: ['12'], total: 1 });
  } finally {
    await store.close();
  }
}

describe('upgrading a data dir (migration 0017 indexes the posts it finds)', () => {
  it('on SQLite', async () => {
    const dir = tempDir('upgrade-0017');
    await upgradeWithPosts(
      new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(path.join(dir, 'facet.db')) }) }),
      () => openStore({ dataDir: dir }),
    );
  });

  it.skipIf(!TEST_DATABASE_URL)('on PostgreSQL', async () => {
    const url = await createTestDatabase();
    await upgradeWithPosts(
      new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) }),
      () => openStore({ dataDir: null, databaseUrl: url }),
    );
  });
});
