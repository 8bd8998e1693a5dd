import type { Kysely, Migration } from 'kysely';

/**
 * Versioned migrations, frozen in time: each takes Kysely<any> and never imports the app's current
 * types. Supplied as an in-code list because a bundle cannot scan a folder. Later surfaces append
 * their own entries; names sort in application order.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_identity_keys_usage': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('frozen_at', 'text')
        .addColumn('last_used_at', 'text')
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
      await db.schema
        .createTable('usage_records')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('api_key_id', 'text')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('input_tokens', 'integer', (c) => c.notNull())
        .addColumn('output_tokens', 'integer', (c) => c.notNull())
        .addColumn('cache_read_tokens', 'integer', (c) => c.notNull())
        .addColumn('cache_write_tokens', 'integer', (c) => c.notNull())
        .addColumn('web_searches', 'integer', (c) => c.notNull())
        .addColumn('cost_nano_usd', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('usage_key').on('usage_records').column('api_key_id').execute();
      await db.schema.createIndex('usage_user').on('usage_records').column('user_id').execute();
      await db.schema.createIndex('usage_task').on('usage_records').column('task_id').execute();
    },
  },
  '0002_projects_tasks_jobs': {
    async up(db: Kysely<any>) {
      // The durable job queue (src/server/jobs): every async task kind runs from here.
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_after', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('jobs_claim').on('jobs').columns(['state', 'run_after']).execute();
      await db.schema
        .createTable('job_logs')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('line', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('job_logs_job').on('job_logs').columns(['job_id', 'id']).execute();
      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // 'user' or an API key id for a default project; null for projects made on purpose.
        .addColumn('default_for', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('projects_user').on('projects').column('user_id').execute();
      await db.schema.createIndex('projects_default').on('projects').columns(['user_id', 'default_for']).unique().execute();
      await db.schema
        .createTable('project_sites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('project_sites_project').on('project_sites').column('project_id').execute();
      await db.schema
        .createTable('project_files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('project_files_project').on('project_files').column('project_id').execute();
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('site_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tasks_user').on('tasks').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('tasks_project').on('tasks').column('project_id').execute();
    },
  },
};
