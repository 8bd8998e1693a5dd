import type { Kysely, Migration } from 'kysely';

/** Migration 0021_livedocs_one_owner_index, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const livedocsOneOwnerIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // livedocs_owner_page (owner_id, modified_at, id) serves every lookup by owner the older
    // owner_id index did; keeping both cost every LiveDoc write a second index update.
    await db.schema.dropIndex('livedocs_owner').ifExists().execute();
  },
};
