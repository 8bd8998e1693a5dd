import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from './database.js';
import { MIGRATIONS } from './migrations.js';
import { registerStoreProbe } from './view-cache.js';
import { connectPostgres, redactDatabaseUrl } from './postgres.js';
import { withExclusiveLock } from './dialect/locks.js';
import { PostgresCacheBus } from './dialect/cache-bus.js';
import { attachCacheBus } from './cache-bus.js';
import type { StoreDialect } from './dialect/kind.js';
import { preparePrivateDataDir } from '../files/private.js';
import { refusingUnstorableText } from './unstorable-text.js';

export interface Store {
  db: Kysely<Database>;
  dialect: StoreDialect;
  /** The SQLite file the records live in, or null for --memory and PostgreSQL. */
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
  const cache = new LRUCache<string, Sqlite.Statement>({ max: capacity });
  return {
    close: () => db.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * Opens the store and brings it to the newest migration: PostgreSQL when a `postgres://` URL is
 * given, else the SQLite file in the data dir (or in memory). Services and repositories only see
 * Kysely<Database>; what must differ lives in ./dialect/.
 */
export async function openStore(options: { dataDir: string | null; databaseUrl?: string }): Promise<Store> {
  if (options.databaseUrl) return openPostgresStore(options.databaseUrl);
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
  // Reads through a memory map instead of a read() call per page, for the first 64 MiB of the file:
  // mapped pages count in the server's resident memory, so a large store (a million imported
  // backlinks) reads the rest through the OS page cache instead of growing the process by the map.
  if (file) sqlite.pragma('mmap_size = 67108864');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: refusingUnstorableText(new SqliteDialect({ database: statements })) });
  // What lets whole answers be cached exactly (view-cache.ts): open transactions, and commits of
  // other connections (the admin commands that write a running server's data dir).
  // The pragma costs a tenth of a cached page's serving time, so it is read at most once a
  // millisecond: another process's commit is seen within a millisecond of it.
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let foreign = { at: -Infinity, value: 0 };
  const foreignCommits = () => {
    const at = performance.now();
    if (at - foreign.at >= 1) foreign = { at, value: dataVersion.get() as number };
    return foreign.value;
  };
  registerStoreProbe(db, { inTransaction: () => sqlite.inTransaction, foreignCommits });
  await migrateOrClose(db);
  return {
    db,
    dialect: 'sqlite',
    file,
    async close() {
      await db.destroy();
    },
  };
}

/**
 * PostgreSQL: a pool per instance; several instances may start at once on one database, so the
 * migrations run under an advisory lock (the first runs them, the others then find nothing to do).
 *
 */
async function openPostgresStore(url: string): Promise<Store> {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error(`--database-url must be a postgres:// URL, got ${redactDatabaseUrl(url)}`);
  const db = connectPostgres(url);
  try {
    await db.selectNoFrom((eb) => eb.val(1).as('ok')).execute();
  } catch (err) {
    await db.destroy();
    throw new Error(`cannot reach PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`, { cause: err });
  }
  await migrateOrClose(db);
  // Writes other instances must see at once (a key frozen) drop their caches through this bus.
  const bus = new PostgresCacheBus(db, url, (err) => process.emitWarning(`cache bus: ${(err as Error).message}`));
  try {
    await bus.start();
  } catch (err) {
    await db.destroy();
    throw new Error(
      `cannot listen for cache announcements on PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  attachCacheBus(db, bus);
  return {
    db,
    dialect: 'postgres',
    file: null,
    async close() {
      await bus.close();
      await db.destroy();
    },
  };
}

/** Brings the store to the newest migration, one migrator at a time; closes it on failure. */
async function migrateOrClose(db: Kysely<Database>): Promise<void> {
  const { error, results } = await withExclusiveLock(db, 'facet:migrations', (conn) =>
    new Migrator({ db: conn, provider }).migrateToLatest(),
  );
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
