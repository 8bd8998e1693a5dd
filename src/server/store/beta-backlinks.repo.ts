import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BacklinkItem } from '../../contract/beta-seo.js';
import {
  BACKLINK_FIELDS,
  SCALED_FIELDS,
  scaleRank,
  type StoredBacklink,
} from '../providers/beta/local/backlinks-data.js';
import type { BetaBacklinkSetsTable, Database } from './database.js';

/**
 * The local backlinks as rows of beta_backlinks (migration 0027): a subject's current set is either
 * generated on its first request (seeded, from the deterministic generator) or imported, and
 * beta_backlink_sets names it with a version that changes on every import.
 */

type Db = Kysely<Database>;
export type BacklinkSet = Pick<BetaBacklinkSetsTable, 'origin' | 'version' | 'row_count'>;

/** Rows per INSERT: about 50 parameters each keeps a statement under both databases' limits. */
const BATCH = 500;

/** The stored columns of a backlink (see BetaBacklinksTable). */
export function backlinkColumns(
  subject: string,
  seq: number,
  row: StoredBacklink,
): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {
    subject,
    seq,
    internal: row.internal ? 1 : 0,
    to_subdomain: row.to_subdomain ? 1 : 0,
  };
  const r = row as unknown as Record<string, unknown>;
  for (const [field, type] of Object.entries(BACKLINK_FIELDS)) {
    const v = r[field];
    if (type === 'boolean') out[field] = v ? 1 : 0;
    else if (type === 'string[]') out[field] = v === null || v === undefined ? null : JSON.stringify(v);
    else out[field] = (v ?? null) as string | number | null;
  }
  for (const field of SCALED_FIELDS)
    out[`${field}_100`] = typeof r[field] === 'number' ? scaleRank(r[field], 'one_hundred') : null;
  out.indirect_link_path =
    row.indirect_link_path === null || row.indirect_link_path === undefined
      ? null
      : JSON.stringify(row.indirect_link_path);
  return out;
}

/** A stored row as the API shows it, its ranks on the requested scale. */
export function backlinkItem(
  c: Record<string, unknown>,
  scale: 'one_hundred' | 'one_thousand',
  groupCount: number,
): BacklinkItem {
  const item: Record<string, unknown> = { type: 'backlink' };
  for (const [field, type] of Object.entries(BACKLINK_FIELDS)) {
    const v = c[scale === 'one_hundred' && SCALED_FIELDS.has(field) ? `${field}_100` : field];
    item[field] =
      type === 'boolean'
        ? v === 1 || v === true
        : type === 'string[]'
          ? v === null
            ? null
            : JSON.parse(v as string)
          : v;
    if (field === 'is_indirect_link')
      item.indirect_link_path = c.indirect_link_path === null ? null : JSON.parse(c.indirect_link_path as string);
  }
  item.group_count = groupCount;
  return item as unknown as BacklinkItem;
}

/** The subject's current set, or undefined before its first request or import. */
export function backlinkSet(db: Db, subject: string): Promise<BacklinkSet | undefined> {
  return db
    .selectFrom('beta_backlink_sets')
    .select(['origin', 'version', 'row_count'])
    .where('subject', '=', subject)
    .executeTakeFirst();
}

async function insertRows(db: Db, rows: Array<Record<string, string | number | null>>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH)
    await db
      .insertInto('beta_backlinks')
      .values(rows.slice(i, i + BATCH))
      .execute();
}

/**
 * Stores a subject's generated rows unless it has a set already (another request, or an import, got
 * there first: the insert of its set row is what decides, in one transaction with the rows).
 */
export async function seedBacklinks(db: Db, subject: string, rows: StoredBacklink[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('beta_backlink_sets')
      .values({ subject, origin: 'seeded', version: randomUUID(), row_count: rows.length })
      .onConflict((oc) => oc.column('subject').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await insertRows(
      trx,
      rows.map((row, seq) => backlinkColumns(subject, seq, row)),
    );
  });
}

/**
 * Writes imported backlinks as they arrive, in batches: a subject's earlier rows (seeded or imported)
 * go at its first row, and `finish` names each subject's new set. Run it inside one transaction, so
 * a bad record later in the file leaves every subject as it was.
 */
export class BacklinkImportWriter {
  private readonly counts = new Map<string, number>();
  private pending: Array<Record<string, string | number | null>> = [];

  constructor(private readonly db: Db) {}

  async add(subject: string, row: StoredBacklink): Promise<void> {
    let seq = this.counts.get(subject);
    if (seq === undefined) {
      seq = 0;
      await this.db.deleteFrom('beta_backlinks').where('subject', '=', subject).execute();
      await this.db.deleteFrom('beta_backlink_sets').where('subject', '=', subject).execute();
    }
    this.counts.set(subject, seq + 1);
    this.pending.push(backlinkColumns(subject, seq, row));
    if (this.pending.length >= BATCH) await this.flush();
  }

  private async flush(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    if (rows.length) await insertRows(this.db, rows);
  }

  /** The rows written per subject. */
  async finish(): Promise<Map<string, number>> {
    await this.flush();
    for (const [subject, n] of this.counts)
      await this.db
        .insertInto('beta_backlink_sets')
        .values({ subject, origin: 'imported', version: randomUUID(), row_count: n })
        .execute();
    return this.counts;
  }
}
