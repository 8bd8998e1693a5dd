import type { Kysely, Migration } from 'kysely';
import { addSerialId } from '../dialect/schema.js';

/** Migration 0002_projects_tasks_jobs, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const projectsTasksJobsMigration: Migration = {
  async up(db: Kysely<unknown>) {
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
    await addSerialId(db, db.schema.createTable('job_logs'))
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
    await db.schema
      .createIndex('projects_default')
      .on('projects')
      .columns(['user_id', 'default_for'])
      .unique()
      .execute();
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
};
