import type { Kysely } from 'kysely';
import type { BetaDataRowsTable, Database } from './database.js';

export type DataFamily = BetaDataRowsTable['family'];

/** Replaces the imported rows of each subject in `bySubject`, in one transaction. */
export async function replaceImported(db: Kysely<Database>, family: DataFamily, bySubject: Map<string, unknown[]>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [subject, rows] of bySubject) {
      await trx.deleteFrom('beta_data_rows').where('family', '=', family).where('subject', '=', subject).execute();
      // Batches keep each statement under the databases' parameter limits.
      for (let i = 0; i < rows.length; i += 200) {
        const batch = rows.slice(i, i + 200).map((row, k) => ({ family, subject, seq: i + k, data: JSON.stringify(row) }));
        await trx.insertInto('beta_data_rows').values(batch).execute();
      }
    }
  });
}

/** The imported rows of a subject in file order, or null when none were imported. */
export async function importedRows<T>(db: Kysely<Database>, family: DataFamily, subject: string): Promise<T[] | null> {
  const rows = await db.selectFrom('beta_data_rows').select('data').where('family', '=', family).where('subject', '=', subject).orderBy('seq').execute();
  return rows.length ? rows.map((r) => JSON.parse(r.data) as T) : null;
}
