import type { Kysely, Migration } from 'kysely';
import { codePointText } from '../dialect/backlinks.js';

/**
 * Issue 25: the local backlinks as SQL tables, seeded and imported alike, instead of an in-memory
 * column store. One row per backlink with a column per filterable field (booleans 0/1, lists and
 * indirect_link_path as JSON text, ranks also on the 0-100 scale), and one row per subject naming
 * its current set (a new version on every import). Indexes serve the default order, the common
 * orders and the fields the filters and groupings read most. Imported backlinks already in
 * beta_data_rows move here. Frozen: never import the app's current types here.
 */

const NUMBERS = [
  'domain_from_rank',
  'page_from_rank',
  'rank',
  'rank_100',
  'domain_from_rank_100',
  'page_from_rank_100',
  'backlink_spam_score',
  'url_to_status_code',
  'url_to_spam_score',
  'page_from_size',
  'page_from_status_code',
  'page_from_external_links',
  'page_from_internal_links',
  'links_count',
];
const FLAGS = [
  'internal',
  'to_subdomain',
  'domain_from_is_ip',
  'url_from_https',
  'url_to_https',
  'dofollow',
  'original',
  'is_new',
  'is_lost',
  'is_broken',
  'is_indirect_link',
];
const TEXTS = [
  'domain_from',
  'domain_from_country',
  'domain_from_ip',
  'url_from',
  'domain_to',
  'url_to',
  'tld_from',
  'url_to_redirect_target',
  'page_from_title',
  'page_from_encoding',
  'page_from_language',
  'first_seen',
  'prev_seen',
  'last_seen',
  'item_type',
  'alt',
  'image_url',
  'anchor',
  'text_pre',
  'text_post',
  'semantic_location',
];
const JSONS = ['domain_from_platform_type', 'attributes', 'indirect_link_path'];
const INDEXED = ['rank', 'domain_from_rank', 'first_seen', 'last_seen', 'anchor', 'domain_from'];

type Column = string | number | null;

/** The tables this migration reads and fills, as they were then (never the app's current types). */
interface Tables {
  beta_data_imports: { family: string; subject: string; version: string; row_count: number };
  beta_data_rows: { family: string; subject: string; seq: number; data: string };
  beta_backlinks: Record<string, Column>;
  beta_backlink_sets: { subject: string; origin: string; version: string; row_count: number };
}

/** A stored row (as the import wrote it to beta_data_rows) as this table's columns. */
function columns(subject: string, seq: number, row: Record<string, unknown>): Record<string, Column> {
  const out: Record<string, Column> = { subject, seq };
  for (const f of NUMBERS) if (!f.endsWith('_100')) out[f] = typeof row[f] === 'number' ? row[f] : null;
  for (const f of ['rank', 'domain_from_rank', 'page_from_rank'])
    out[`${f}_100`] = typeof row[f] === 'number' ? Math.round(row[f] / 10) : null;
  for (const f of FLAGS) out[f] = row[f] ? 1 : 0;
  for (const f of TEXTS) out[f] = typeof row[f] === 'string' ? row[f] : null;
  for (const f of JSONS) out[f] = row[f] === null || row[f] === undefined ? null : JSON.stringify(row[f]);
  return out;
}

export const betaBacklinksMigration: Migration = {
  async up(db: Kysely<Tables>) {
    const text = codePointText(db);
    let table = db.schema
      .createTable('beta_backlinks')
      .addColumn('subject', text, (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull());
    for (const f of NUMBERS) table = table.addColumn(f, 'double precision');
    for (const f of FLAGS) table = table.addColumn(f, 'integer', (c) => c.notNull());
    for (const f of [...TEXTS, ...JSONS]) table = table.addColumn(f, text);
    await table.addPrimaryKeyConstraint('beta_backlinks_pk', ['subject', 'seq']).execute();
    for (const f of INDEXED)
      await db.schema.createIndex(`beta_backlinks_${f}`).on('beta_backlinks').columns(['subject', f]).execute();
    await db.schema
      .createTable('beta_backlink_sets')
      .addColumn('subject', text, (c) => c.primaryKey())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('row_count', 'integer', (c) => c.notNull())
      .execute();

    const imported = await db
      .selectFrom('beta_data_imports')
      .select(['subject', 'version', 'row_count'])
      .where('family', '=', 'backlinks')
      .execute();
    for (const set of imported) {
      for (let after = -1; ;) {
        const page = await db
          .selectFrom('beta_data_rows')
          .select(['seq', 'data'])
          .where('family', '=', 'backlinks')
          .where('subject', '=', set.subject)
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(500)
          .execute();
        if (!page.length) break;
        await db
          .insertInto('beta_backlinks')
          .values(page.map((r) => columns(set.subject, Number(r.seq), JSON.parse(r.data) as Record<string, unknown>)))
          .execute();
        after = Number(page[page.length - 1].seq);
      }
      await db
        .insertInto('beta_backlink_sets')
        .values({ subject: set.subject, origin: 'imported', version: set.version, row_count: set.row_count })
        .execute();
    }
    await db.deleteFrom('beta_data_rows').where('family', '=', 'backlinks').execute();
    await db.deleteFrom('beta_data_imports').where('family', '=', 'backlinks').execute();
  },
};
