import type { Kysely, Migration } from 'kysely';

/**
 * Issue 11: slide and landing-page tasks (spec 2.6, 3). A task is a row here plus a job of the
 * durable queue; its outcome is written here when the runner ends, so the status survives the job's
 * own retention. Frozen in time like every migration: no imports of the app's current types.
 */
export const docTasksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('doc_tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('api_key_id', 'text')
      .addColumn('livedoc_id', 'text', (c) => c.notNull())
      .addColumn('biz_id', 'text', (c) => c.notNull().unique())
      // The job of the current run: a retry of a PENDING task makes a new one.
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      // null while the job decides; then completed | failed | pending | canceled | expired.
      .addColumn('outcome', 'text')
      .addColumn('error_message', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('doc_tasks_user').on('doc_tasks').columns(['user_id', 'created_at']).execute();
    // The retention sweep looks for completed tasks finished before a cut-off.
    await db.schema.createIndex('doc_tasks_outcome').on('doc_tasks').columns(['outcome', 'finished_at']).execute();
  },
};
