import type { Kysely, Migration } from 'kysely';

/**
 * Issue 30: the audit trail, append-only. Pages read newest first by (at, id), for everyone or one
 * user (as actor or as the subject of the change); the retention sweep deletes by `at`.
 */
export const auditLogMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_user_id', 'text')
      .addColumn('actor_credential_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text')
      .addColumn('subject_user_id', 'text')
      .addColumn('request_id', 'text')
      .addColumn('client_ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .execute();
    await db.schema.createIndex('audit_log_page').on('audit_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_user_id', 'at']).execute();
    await db.schema.createIndex('audit_log_subject').on('audit_log').columns(['subject_user_id', 'at']).execute();
    await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_id', 'at']).execute();
  },
};
