import {
  sql,
  type Expression,
  type Kysely,
  type QueryExecutorProvider,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { dialectOf } from './kind.js';

/**
 * Locking, the concern where the stores differ most. SQLite has one writer at a time for the whole
 * file, so a guarded UPDATE is already exclusive and there is nothing to add. PostgreSQL runs
 * writers side by side (several instances on one database), so rows and duties are locked there.
 */

/**
 * A SELECT that picks rows to claim. On PostgreSQL the picked rows are locked until the claiming
 * statement commits and rows another claimer holds are skipped (FOR UPDATE SKIP LOCKED), so
 * concurrent claimers each get a different row instead of queueing behind one another.
 */
export function claimable<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(db) === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * `column` is one of the ids `pick` selects, with `pick` run once. PostgreSQL may run an
 * `IN (subquery)` again for every row it scans (a nested loop), and with SKIP LOCKED each run picks
 * and locks other rows, so a claim of n jobs could take more; `= ANY(ARRAY(subquery))` is computed
 * once, before the scan. SQLite computes an uncorrelated IN list once anyway.
 */
export function amongPicked(db: QueryExecutorProvider, column: string, pick: Expression<unknown>): Expression<SqlBool> {
  return dialectOf(db) === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = ANY(ARRAY(${pick}))`
    : sql<SqlBool>`${sql.ref(column)} IN (${pick})`;
}

/**
 * Runs `fn` holding a database-wide lock named `name`, on one connection for its whole length
 * (PostgreSQL advisory locks belong to a session). Other holders wait. On SQLite the process already
 * holds the data dir's lock file, so `fn` simply runs.
 */
export async function withExclusiveLock<T, DB>(
  db: Kysely<DB>,
  name: string,
  fn: (db: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (dialectOf(db) !== 'postgres') return fn(db);
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtextextended(${name}, 0))`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtextextended(${name}, 0))`.execute(conn);
    }
  });
}

/**
 * Inside a transaction: waits for, then holds until commit or rollback, a lock named `name`, so
 * check-then-write transactions on the same thing (a user's key count, a rate-limit window) run one
 * after the other. SQLite runs one transaction at a time already; on PostgreSQL (read committed, and
 * several instances) two such transactions would otherwise both pass the check.
 */
export async function lockForTransaction(trx: QueryExecutorProvider, name: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
}
