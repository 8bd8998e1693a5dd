import type { Kysely, Migration } from 'kysely';

/** Migration 0007_list_totals, frozen in time: it takes Kysely<any> and never imports the app's current types. */
export const listTotalsMigration: Migration = {
  async up(db: Kysely<any>) {
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
      .expression((eb: any) =>
        eb
          .selectFrom('livedocs')
          .select(['owner_id', eb.val('livedocs').as('list'), eb.fn.countAll().as('n')])
          .groupBy('owner_id'),
      )
      .execute();
  },
};
