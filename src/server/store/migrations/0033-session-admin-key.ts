import type { Kysely, Migration } from 'kysely';

/**
 * Issue 38: a console session opened with the deployment admin key keeps that key's hash, so a
 * restart with another `--admin-key` (the old one leaked) ends it.
 */
export const sessionAdminKeyMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('admin_key_hash', 'text').execute();
  },
};
