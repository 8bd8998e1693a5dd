import { setImmediate } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BetaDataRowsTable, Database } from './database.js';

export type DataFamily = BetaDataRowsTable['family'];

/** Replaces the imported rows of each subject in `bySubject`, in one transaction; each gets a new import version. */
export async function replaceImported(db: Kysely<Database>, family: DataFamily, bySubject: Map<string, unknown[]>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [subject, rows] of bySubject) {
      await trx.deleteFrom('beta_data_rows').where('family', '=', family).where('subject', '=', subject).execute();
      // Batches keep each statement under the databases' parameter limits.
      for (let i = 0; i < rows.length; i += 200) {
        const batch = rows.slice(i, i + 200).map((row, k) => ({ family, subject, seq: i + k, data: JSON.stringify(row) }));
        await trx.insertInto('beta_data_rows').values(batch).execute();
      }
      await trx.deleteFrom('beta_data_imports').where('family', '=', family).where('subject', '=', subject).execute();
      await trx.insertInto('beta_data_imports').values({ family, subject, version: randomUUID(), row_count: rows.length, imported_at: new Date().toISOString() }).execute();
    }
  });
}

/** The imported rows of a subject in file order, or null when none were imported. */
export async function importedRows<T>(db: Kysely<Database>, family: DataFamily, subject: string): Promise<T[] | null> {
  const rows = await db.selectFrom('beta_data_rows').select('data').where('family', '=', family).where('subject', '=', subject).orderBy('seq').execute();
  return rows.length ? rows.map((r) => JSON.parse(r.data) as T) : null;
}

/** The version of a subject's current import, or null when it has none (one indexed row read). */
export async function importVersion(db: Kysely<Database>, family: DataFamily, subject: string): Promise<string | null> {
  const row = await db.selectFrom('beta_data_imports').select('version').where('family', '=', family).where('subject', '=', subject).executeTakeFirst();
  return row?.version ?? null;
}

/** Rows read per query when an import is read whole: each page is one short synchronous read on SQLite. */
const PAGE_ROWS = 5_000;

/**
 * A subject's current import as its version and its rows' JSON text in file order, packed as
 * newline-separated JSON (rows are written with JSON.stringify, so none holds a raw newline) in
 * chunks the caller can transfer to a CPU worker without copying. Read page by page, yielding to
 * the event loop between pages: a 1M-row import read at once held the server still for seconds.
 * No transaction spans the pages (on SQLite it would hold the one connection meanwhile); the
 * version is read again at the end and the read restarts if an import replaced the rows meanwhile.
 */
export async function importedRowsText(db: Kysely<Database>, family: DataFamily, subject: string): Promise<{ version: string; chunks: Uint8Array[] } | null> {
  const encoder = new TextEncoder();
  for (let attempt = 1; ; attempt++) {
    const version = await importVersion(db, family, subject);
    if (version === null) return null;
    const chunks: Uint8Array[] = [];
    for (let after = -1; ; ) {
      const page = await db
        .selectFrom('beta_data_rows')
        .select(['seq', 'data'])
        .where('family', '=', family)
        .where('subject', '=', subject)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(PAGE_ROWS)
        .execute();
      if (page.length === 0) break;
      chunks.push(encoder.encode(page.map((r) => r.data).join('\n')));
      after = Number(page[page.length - 1].seq);
      await setImmediate();
    }
    if ((await importVersion(db, family, subject)) === version) return { version, chunks };
    // Imports replaced the rows under every read: say so rather than read on for ever.
    if (attempt === 3) throw new Error(`the imported rows of ${subject} changed during three reads in a row; try again`);
  }
}
