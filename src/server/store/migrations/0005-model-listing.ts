import type { Kysely, Migration } from 'kysely';

/** Migration 0005_model_listing, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const modelListingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // An administrator's list/hide decision per catalog model; absent = the catalog's own flag.
    await db.schema
      .createTable('model_listing')
      .addColumn('model_id', 'text', (c) => c.primaryKey())
      .addColumn('listed', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
  },
};
