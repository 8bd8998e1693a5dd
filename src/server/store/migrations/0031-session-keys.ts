import type { Kysely, Migration } from 'kysely';

/**
 * Issue 38: a console session opened with an API key names that key, so it ends when the key is
 * frozen, deleted or expires. Sessions opened otherwise (an access token, the admin key) have none.
 */
export const sessionKeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('api_key_id', 'text').execute();
    await db.schema.createIndex('sessions_api_key').on('sessions').column('api_key_id').execute();
  },
};
