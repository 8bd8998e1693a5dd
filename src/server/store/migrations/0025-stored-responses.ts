import type { Kysely, Migration } from 'kysely';

/**
 * Issue 27: stored Responses (previous_response_id, GET/DELETE, input_items) and Anthropic message
 * threads share one table: a row is the conversation a later turn continues from, owned by one key.
 */
export const storedResponsesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('model_api_stored')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('items', 'integer', (c) => c.notNull())
      .addColumn('continued_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('model_api_stored_owner').on('model_api_stored').column('owner').execute();
    await db.schema.createIndex('model_api_stored_expiry').on('model_api_stored').column('expires_at').execute();
  },
};
