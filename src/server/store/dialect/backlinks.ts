import { sql, type ColumnDataType, type Expression, type QueryExecutorProvider, type SqlBool } from 'kysely';
import { dialectOf } from './kind.js';

/**
 * The SQL the backlinks tables need that the two stores spell differently: text that compares and
 * sorts by code point (SQLite's default; PostgreSQL's default collation follows the locale), and a
 * column tested against a set of values of any size sent as one parameter.
 */

/** A text column ordered by code point, as the filters' string comparisons are. */
export function codePointText(db: QueryExecutorProvider): ColumnDataType | Expression<unknown> {
  return dialectOf(db) === 'postgres' ? sql`text collate "C"` : 'text';
}

/** `column` (a reference) is one of `values` (one bound parameter, so no limit on how many). */
export function inValueSet(
  db: QueryExecutorProvider,
  column: Expression<unknown>,
  values: readonly string[],
): Expression<SqlBool> {
  return dialectOf(db) === 'postgres'
    ? sql<SqlBool>`${column} = any(${[...values]}::text[])`
    : sql<SqlBool>`${column} in (select value from json_each(${JSON.stringify(values)}))`;
}

/** Whether unindexedRef steers the planner to the order's index (SQLite; PostgreSQL plans by cost). */
export function steersIndexChoice(db: QueryExecutorProvider): boolean {
  return dialectOf(db) !== 'postgres';
}

/**
 * A column in a condition that must not pick the query's index, so that the order's index is
 * walked instead (SQLite's unary +, which keeps the column's value and collation). PostgreSQL
 * weighs a LIMIT against its own statistics, so it gets the plain column.
 */
export function unindexedRef(db: QueryExecutorProvider, column: string): Expression<unknown> {
  return dialectOf(db) === 'postgres' ? sql.ref(column) : sql`+${sql.ref(column)}`;
}

/**
 * Makes this connection plan with the statistics the latest ANALYZE wrote, also one another process
 * ran (`facet serve data import` beside a running server): SQLite reads them with the schema and
 * does not notice another connection's ANALYZE; this re-reads them and writes nothing. PostgreSQL
 * keeps its statistics in the server, shared by every connection.
 */
export async function reloadPlannerStatistics(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) !== 'postgres') await sql`analyze sqlite_master`.execute(db);
}
