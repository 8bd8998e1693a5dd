import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './database.js';
import { refusingUnstorableText } from './unstorable-text.js';

// Type ids of PostgreSQL's wide numbers (pg_type.oid): count(*) answers int8, sum(int8) numeric.
const INT8 = 20;
const NUMERIC = 1700;

/**
 * pg reads int8 and numeric as strings (they may exceed 2^53). Every such value facet stores or
 * counts (rows, tokens, nano-dollars) is far below 2^53, and the repository code compares and adds
 * them as numbers, as it does with SQLite: read them as numbers here, once, for this pool only.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    // pg-types declares every parser as `any`; a text or binary parser takes the raw value.
    return pg.types.getTypeParser(oid, format) as (value: string | Buffer) => unknown;
  },
};

/** A pool's state for /metrics: connections open, idle and waited for, its size, and connection errors so far. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
  errors: number;
}

const pools = new WeakMap<Kysely<Database>, () => PoolStats>();

/** The pool behind a PostgreSQL store (undefined for SQLite). */
export function poolStatsOf(db: Kysely<Database>): PoolStats | undefined {
  return pools.get(db)?.();
}

/** A Kysely over a pg pool for `postgres://…` (the URL's user, password, host, port and database). */
export function connectPostgres(url: string, options: { maxConnections?: number } = {}): Kysely<Database> {
  const max = options.maxConnections ?? 10;
  const pool = new pg.Pool({ connectionString: url, max, types });
  let errors = 0;
  // An idle connection the server closes (restart, idle timeout) would otherwise crash the process
  // with an unhandled 'error'; the pool drops it and the next query opens a fresh one.
  pool.on('error', () => void errors++);
  // The pool listens only to idle clients: one checked out (a transaction, an advisory lock held
  // between queries) that loses its server emits 'error' with no listener, which ends the process.
  // The query in flight fails on its own; the pool discards the client when it is released.
  pool.on('connect', (client) => client.on('error', () => void errors++));
  const db = new Kysely<Database>({ dialect: refusingUnstorableText(new PostgresDialect({ pool })) });
  pools.set(db, () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max, errors }));
  return db;
}

/** The URL without its password, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
