import type { Kysely, Migration } from 'kysely';

/** Migration 0006_key_pages, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const keyPagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // Admin key listings page in (created_at, id) order, for everyone or one user.
    await db.schema.createIndex('api_keys_page').on('api_keys').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('api_keys_user_page').on('api_keys').columns(['user_id', 'created_at', 'id']).execute();
  },
};
