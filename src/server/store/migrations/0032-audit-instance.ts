import type { Kysely, Migration } from 'kysely';

/** Issue 39: which instance made an audit entry (`--instance-id`); null for offline commands and older entries. */
export const auditInstanceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('audit_log').addColumn('instance_id', 'text').execute();
  },
};
