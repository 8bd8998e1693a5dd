import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { openStore, type Store } from './store.js';

/**
 * `facet serve migrate`: the records of a SQLite data dir copied into PostgreSQL. The source is
 * never opened: the caller holds the data dir's lock (no server writes it), and its database file,
 * with the write-ahead log a crash may have left, is copied into a temporary folder — SQLite opens
 * even a read-only database by adding -wal and -shm files beside it. The copy is brought to the
 * newest migration; the target gets the same migrations, must hold no records yet, and receives
 * every table's rows, parents before children, in batches. Counts are compared table by table.
 */

/** Tables that describe processes, not records: each instance makes its own. */
const NOT_COPIED = new Set(['cache_instances', 'cache_epoch']);
const BATCH = 500;

export interface TableCopy {
  table: string;
  rows: number;
}

/** The source's tables in an order where every table comes after those its foreign keys name. */
function tablesInOrder(sqlite: Sqlite.Database): string[] {
  const all = sqlite
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`,
    )
    .all() as Array<{ name: string; sql: string }>;
  // Full-text indexes are rebuilt by each database from the rows (FTS5 here, GIN on PostgreSQL).
  const virtual = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const tables = all
    .map((t) => t.name)
    .filter((n) => !virtual.includes(n) && !virtual.some((v) => n.startsWith(`${v}_`)) && !NOT_COPIED.has(n));
  const parents = new Map(
    tables.map((t) => [
      t,
      (sqlite.prepare(`PRAGMA foreign_key_list("${t}")`).all() as Array<{ table: string }>)
        .map((f) => f.table)
        .filter((p) => p !== t),
    ]),
  );
  const ordered: string[] = [];
  const visit = (t: string, path: string[] = []) => {
    if (ordered.includes(t) || path.includes(t)) return;
    for (const p of parents.get(t) ?? []) if (tables.includes(p)) visit(p, [...path, t]);
    ordered.push(t);
  };
  for (const t of tables.sort()) visit(t);
  return ordered;
}

/** Any table, named at run time: the copy reads each table's rows as they are. */
type AnyTables = Record<string, Record<string, unknown>>;

async function countRows(db: Kysely<Database>, table: string): Promise<number> {
  const { n } = await db
    .withTables<AnyTables>()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Serial ids were copied as they were: each sequence continues after the highest one. */
async function advanceSequences(target: Kysely<Database>): Promise<void> {
  const serials = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`.execute(target);
  for (const { table_name, column_name } of serials.rows) {
    await sql`SELECT setval(pg_get_serial_sequence(${table_name}, ${column_name}), greatest(coalesce((SELECT max(${sql.ref(column_name)}) FROM ${sql.table(table_name)}), 0), 1))`.execute(
      target,
    );
  }
}

export async function copySqliteToPostgres(
  sourceFile: string,
  targetUrl: string,
  onTable: (copy: TableCopy) => void = () => undefined,
): Promise<TableCopy[]> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'facet-migrate-'));
  let source: Store | undefined;
  let target: Store | undefined;
  try {
    const snapshot = path.join(scratch, 'facet.db');
    copyFileSync(sourceFile, snapshot);
    // A log left by a crash holds committed rows; the copy replays it when first opened.
    if (existsSync(`${sourceFile}-wal`)) copyFileSync(`${sourceFile}-wal`, `${snapshot}-wal`);
    source = await openStore({ dataDir: scratch });
    target = await openStore({ dataDir: null, databaseUrl: targetUrl });
    const raw = new Sqlite(snapshot, { readonly: true });
    let order: string[];
    try {
      order = tablesInOrder(raw);
    } finally {
      raw.close();
    }
    for (const table of order) {
      if ((await countRows(target.db, table)) > 0 && table !== 'settings') {
        throw new Error(`the target database already holds records (table ${table}): migrate into an empty database`);
      }
    }
    const copies: TableCopy[] = [];
    for (const table of order) {
      // The target's own settings (made at its first open) give way to the source's.
      if (table === 'settings') await target.db.deleteFrom('settings').execute();
      let copied = 0;
      for (let offset = 0; ; offset += BATCH) {
        const rows = await sql<
          Record<string, unknown>
        >`SELECT * FROM ${sql.table(table)} ORDER BY rowid LIMIT ${BATCH} OFFSET ${offset}`.execute(source.db);
        if (rows.rows.length === 0) break;
        await target.db.withTables<AnyTables>().insertInto(table).values(rows.rows).execute();
        copied += rows.rows.length;
      }
      const there = await countRows(target.db, table);
      if (there !== copied || copied !== (await countRows(source.db, table)))
        throw new Error(`table ${table}: ${copied} rows read, ${there} in the target`);
      const copy = { table, rows: copied };
      copies.push(copy);
      onTable(copy);
    }
    await advanceSequences(target.db);
    return copies;
  } finally {
    await source?.close();
    await target?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
