import type { Kysely, Migration } from 'kysely';

/**
 * Issue 32: a browser session is its own credential (store/sessions.repo.ts), stored as a hash like
 * an API key and deleted at logout; and each job counts the times the server died while running it
 * (jobs/queue.ts), so a task that takes the server down is failed instead of run for ever.
 */
export const sessionsJobCrashesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema
      .alterTable('jobs')
      .addColumn('crashes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
