import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BetaDataRowsTable, Database } from './database.js';

export type DataFamily = BetaDataRowsTable['family'];

/** Rows per INSERT: keeps each statement under the databases' parameter limits. */
const BATCH = 200;

/**
 * Writes imported rows of a family (income, insiders) as they arrive, in batches: a subject's
 * earlier rows go at its first row, and `finish` records each subject's import. Run it inside one
 * transaction, so a bad record later in the file leaves every subject as it was.
 */
export class DataImportWriter {
  private readonly counts = new Map<string, number>();
  private pending: BetaDataRowsTable[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly family: DataFamily,
  ) {}

  async add(subject: string, row: unknown): Promise<void> {
    const { db, family } = this;
    let seq = this.counts.get(subject);
    if (seq === undefined) {
      seq = 0;
      await db.deleteFrom('beta_data_rows').where('family', '=', family).where('subject', '=', subject).execute();
      await db.deleteFrom('beta_data_imports').where('family', '=', family).where('subject', '=', subject).execute();
    }
    this.counts.set(subject, seq + 1);
    this.pending.push({ family, subject, seq, data: JSON.stringify(row) });
    if (this.pending.length >= BATCH) await this.flush();
  }

  private async flush(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    if (rows.length) await this.db.insertInto('beta_data_rows').values(rows).execute();
  }

  /** The rows written per subject. */
  async finish(): Promise<Map<string, number>> {
    await this.flush();
    const at = new Date().toISOString();
    for (const [subject, n] of this.counts) {
      await this.db
        .insertInto('beta_data_imports')
        .values({ family: this.family, subject, version: randomUUID(), row_count: n, imported_at: at })
        .execute();
    }
    return this.counts;
  }
}

/** The imported rows of a subject in file order, or null when none were imported. */
export async function importedRows<T>(db: Kysely<Database>, family: DataFamily, subject: string): Promise<T[] | null> {
  const rows = await db
    .selectFrom('beta_data_rows')
    .select('data')
    .where('family', '=', family)
    .where('subject', '=', subject)
    .orderBy('seq')
    .execute();
  return rows.length ? rows.map((r) => JSON.parse(r.data) as T) : null;
}
