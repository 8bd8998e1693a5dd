import type { Kysely, Migration } from 'kysely';
import { addSerialId } from '../dialect/schema.js';

/**
 * Review tasks of the beta SEO endpoints (their job runs in the jobs table under the same id) and
 * the log of every pingback/postback attempt, and rows imported with `facet serve data import`
 * (they replace the generated data of their subject). Frozen: never import the app's current types here.
 */
export const betaDataMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('beta_review_tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('tag', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('cost_micro_usd', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .addColumn('collected_at', 'text')
      .execute();
    await db.schema
      .createIndex('beta_review_tasks_ready')
      .on('beta_review_tasks')
      .columns(['user_id', 'platform', 'status', 'collected_at'])
      .execute();
    await addSerialId(db, db.schema.createTable('beta_callback_deliveries'))
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('delivered', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('beta_callback_deliveries_task')
      .on('beta_callback_deliveries')
      .column('task_id')
      .execute();
    await db.schema
      .createTable('beta_data_rows')
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('beta_data_rows_pk', ['family', 'subject', 'seq'])
      .execute();
  },
};
