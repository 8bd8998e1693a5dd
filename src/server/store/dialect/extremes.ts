import { sql, type Expression, type QueryExecutorProvider } from 'kysely';
import { dialectOf } from './kind.js';

/**
 * The smaller / larger of two values in one row (not an aggregate): SQLite's two-argument min()
 * and max(), PostgreSQL's LEAST and GREATEST. Used by upserts that keep a first and a last time.
 */
export function least<T>(db: QueryExecutorProvider, a: Expression<T>, b: Expression<T>): Expression<T> {
  return dialectOf(db) === 'postgres' ? sql<T>`LEAST(${a}, ${b})` : sql<T>`min(${a}, ${b})`;
}

export function greatest<T>(db: QueryExecutorProvider, a: Expression<T>, b: Expression<T>): Expression<T> {
  return dialectOf(db) === 'postgres' ? sql<T>`GREATEST(${a}, ${b})` : sql<T>`max(${a}, ${b})`;
}
