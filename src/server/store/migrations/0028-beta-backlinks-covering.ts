import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The backlinks indexes of 0027 as covering indexes: each (subject, field) index also carries seq
 * (the order's tie-break, and the page's key) and the columns nearly every query tests — the
 * default switches (is_lost for live, internal, to_subdomain), dofollow, and rank (the default
 * order and the common numeric filter). A query driven by one indexed field then counts its
 * matches from the index alone, and a walk in an indexed order reads a table row only for the
 * entries that pass those tests. Frozen: never import the app's current types here.
 */

const INDEXED = ['rank', 'domain_from_rank', 'first_seen', 'last_seen', 'anchor', 'domain_from'];
const CARRIED = ['seq', 'is_lost', 'internal', 'to_subdomain', 'dofollow', 'rank'];

export const betaBacklinksCoveringMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const f of INDEXED) {
      await db.schema.dropIndex(`beta_backlinks_${f}`).execute();
      await db.schema
        .createIndex(`beta_backlinks_${f}`)
        .on('beta_backlinks')
        .columns(['subject', f, ...CARRIED.filter((c) => c !== f)])
        .execute();
    }
    // Statistics for the new indexes, so the planner weighs them on a store imported before.
    await sql`analyze beta_backlinks`.execute(db);
  },
};
