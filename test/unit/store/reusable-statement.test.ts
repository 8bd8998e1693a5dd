import { describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { reusableStatement } from '../../../src/server/store/reusable-statement.js';

interface Db {
  counts: { name: string; n: number; note: string | null };
}

describe('a reusable statement', () => {
  it('is built once per database and runs with each call’s values', async () => {
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
    await db.schema
      .createTable('counts')
      .addColumn('name', 'text')
      .addColumn('n', 'integer')
      .addColumn('note', 'text')
      .execute();
    let builds = 0;
    const insert = reusableStatement<Db, 'name' | 'n'>(['name', 'n'], (k, v) => {
      builds++;
      return k.insertInto('counts').values({ name: v.name, n: v.n, note: 'fixed' }).compile();
    });
    await db.executeQuery(insert(db, { name: 'a', n: 1 }));
    await db.executeQuery(insert(db, { name: 'b', n: 2 }));
    expect(builds).toBe(1);
    expect(await db.selectFrom('counts').selectAll().orderBy('name').execute()).toEqual([
      { name: 'a', n: 1, note: 'fixed' },
      { name: 'b', n: 2, note: 'fixed' },
    ]);
    await db.destroy();
  });

  it('refuses a value that does not reach the statement as a parameter', () => {
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
    const broken = reusableStatement<Db, 'name' | 'n'>(['name', 'n'], (k, v) =>
      k.insertInto('counts').values({ name: v.name, n: 0, note: null }).compile(),
    );
    expect(() => broken(db, { name: 'a', n: 1 })).toThrow(/the value n is not a parameter/);
  });
});
