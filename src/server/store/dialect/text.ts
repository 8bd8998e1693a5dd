import { sql, type Expression, type QueryExecutorProvider, type SqlBool } from 'kysely';
import { dialectOf } from './kind.js';

/**
 * `column` contains `needle`, ignoring case, with % and _ in the needle read literally. SQLite's
 * LIKE already ignores (ASCII) case; PostgreSQL's LIKE does not, so there it is ILIKE.
 */
export function containsIgnoringCase(db: QueryExecutorProvider, column: string, needle: string): Expression<SqlBool> {
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
  const op = dialectOf(db) === 'postgres' ? sql.raw('ILIKE') : sql.raw('LIKE');
  return sql<SqlBool>`${sql.ref(column)} ${op} ${pattern} ESCAPE '\\'`;
}
