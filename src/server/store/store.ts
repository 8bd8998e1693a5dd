import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { MIGRATIONS } from './migrations.js';
import { registerFastReader } from './prepared.js';
import { preparePrivateDataDir } from '../files/private.js';

export interface Store {
  db: Kysely<Database>;
  dialect: 'sqlite';
  /** The file the records live in, or null for --memory. */
  file: string | null;
  close(): Promise<void>;
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * better-sqlite3 compiles a statement on every prepare(), and Kysely prepares every query it runs.
 * Queries repeat (the same SQL text with different parameters), so compiled statements are kept
 * per SQL text: on a hot read path this halves the database's share of each request.
 */
function withStatementCache(db: Sqlite.Database, capacity = 500) {
  const cache = new Map<string, Sqlite.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * Opens the SQLite store (WAL) and brings it to the newest migration. A PostgreSQL dialect plugs in
 * here: services and repositories only see Kysely<Database>.
 */
export async function openStore(options: { dataDir: string | null }): Promise<Store> {
  let file: string | null = null;
  if (options.dataDir) {
    preparePrivateDataDir(options.dataDir);
    file = path.join(options.dataDir, 'facet.db');
  }
  const sqlite = new Sqlite(file ?? ':memory:');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Reads through a memory map instead of a read() call per page.
  if (file) sqlite.pragma('mmap_size = 268435456');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements as unknown as Sqlite.Database }) });
  registerFastReader(db, (sql, parameters) => statements.prepare(sql).all(...(parameters as unknown[])));
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
  return {
    db,
    dialect: 'sqlite',
    file,
    async close() {
      await db.destroy();
    },
  };
}
