import type { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../store/database.js';
import { BacklinkImportWriter } from '../../../store/beta-backlinks.repo.js';
import { DataImportWriter } from '../../../store/beta-data.repo.js';
import type { StoredBacklink } from '../local/backlinks-data.js';
import { storedRow, type Family } from './families.js';
import { readRecords } from './read-records.js';

/**
 * `facet serve data import`: a file's records, streamed one by one into batched inserts in one
 * transaction (a bad record anywhere leaves the store as it was). Each subject in the file gets
 * exactly the file's rows, replacing what the provider would generate for it.
 */
export async function importFile(
  db: Kysely<Database>,
  family: Family,
  fileName: string,
  input: Readable,
): Promise<{ subjects: string[]; rows: number }> {
  const counts = await db.transaction().execute(async (trx) => {
    const writer = family === 'backlinks' ? new BacklinkImportWriter(trx) : new DataImportWriter(trx, family);
    for await (const rec of readRecords(fileName, input)) {
      const { subject, row } = storedRow(family, rec);
      await writer.add(subject, row as StoredBacklink);
    }
    return writer.finish();
  });
  // Fresh statistics let the planner pick the index that narrows a filter most.
  if (family === 'backlinks') await sql`analyze beta_backlinks`.execute(db);
  return { subjects: [...counts.keys()], rows: [...counts.values()].reduce((s, n) => s + n, 0) };
}
