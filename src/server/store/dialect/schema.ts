import type { ColumnDataType, CreateTableBuilder, QueryExecutorProvider } from 'kysely';
import { dialectOf } from './kind.js';

/**
 * Column types the two stores spell differently, for migrations. SQLite's output is what the
 * migrations produced before PostgreSQL existed, so an existing facet.db never sees a change.
 */

/** An auto-numbered integer primary key: INTEGER PRIMARY KEY AUTOINCREMENT / serial. */
export function addSerialId<T extends string, C extends string>(
  db: QueryExecutorProvider,
  table: CreateTableBuilder<T, C>,
  name = 'id',
): CreateTableBuilder<T, C | string> {
  return dialectOf(db) === 'postgres'
    ? table.addColumn(name, 'serial', (c) => c.primaryKey())
    : table.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * An integer that may pass 2^31 (nano-dollars, byte totals): SQLite's INTEGER is 64-bit already;
 * PostgreSQL's is 32-bit, so there it is bigint (read back as a number, see postgres.ts).
 */
export function wideInteger(db: QueryExecutorProvider): ColumnDataType {
  return dialectOf(db) === 'postgres' ? 'bigint' : 'integer';
}
