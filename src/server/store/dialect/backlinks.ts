import { sql, type ColumnDataType, type Expression, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from './kind.js';

/**
 * The SQL the backlinks tables need that the two stores spell differently: text that compares and
 * sorts by code point (SQLite's default; PostgreSQL's default collation follows the locale), and a
 * column tested against a set of values of any size sent as one parameter.
 */

/** A text column ordered by code point, as the filters' string comparisons are. */
export function codePointText(db: Kysely<any>): ColumnDataType | Expression<unknown> {
  return dialectOf(db) === 'postgres' ? sql`text collate "C"` : 'text';
}

/** `column` is one of `values` (one bound parameter, so no limit on how many). */
export function inValueSet(db: Kysely<any>, column: string, values: readonly string[]): Expression<SqlBool> {
  return dialectOf(db) === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = any(${[...values]}::text[])`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}
