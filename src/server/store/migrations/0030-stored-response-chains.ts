import type { Kysely, Migration } from 'kysely';

/**
 * Issue 38: a stored response keeps only what its turn added and names the response it continued
 * (previous_id); the history is rebuilt by walking the chain. Rows stored before this keep their whole
 * history in their body and have no previous_id, so they read as a chain of one.
 */
export const storedResponseChainsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('model_api_stored').addColumn('previous_id', 'text').execute();
    await db.schema.createIndex('model_api_stored_previous').on('model_api_stored').column('previous_id').execute();
  },
};
