import type { Kysely, Migration } from 'kysely';

/** The tables this migration reads and fills, as they were then (never the app's current types). */
interface Tables {
  livedocs: { owner_id: string };
  list_totals: { owner_id: string; list: string; n: number };
}

/** Migration 0007_list_totals, frozen in time. */
export const listTotalsMigration: Migration = {
  async up(db: Kysely<Tables>) {
    // A LiveDoc page reads its rows from this index in order (no sort of everything the owner has)
    // and its total from list_totals (no count of everything either).
    await db.schema
      .createIndex('livedocs_owner_page')
      .on('livedocs')
      .columns(['owner_id', 'modified_at', 'id'])
      .execute();
    await db.schema
      .createTable('list_totals')
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('list', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('list_totals_pk', ['owner_id', 'list'])
      .execute();
    await db
      .insertInto('list_totals')
      .columns(['owner_id', 'list', 'n'])
      .expression((eb) =>
        eb
          .selectFrom('livedocs')
          .select(['owner_id', eb.val('livedocs').as('list'), eb.fn.countAll().as('n')])
          .groupBy('owner_id'),
      )
      .execute();
  },
};
