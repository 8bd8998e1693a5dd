import { sql, type Kysely, type Migration } from 'kysely';
import { createChunkIndex } from './dialect/fts.js';
import { addSerialId, wideInteger } from './dialect/schema.js';
import { socialMigration } from './migrations/0010-social.js';
import { betaDataMigration } from './migrations/0011-beta-data.js';
import { webScrapeSubtitles } from './migrations/0012-web-scrape-subtitles.js';
import { docTasksMigration } from './migrations/0013-doc-tasks.js';
import { slidesMigration } from './migrations/0014-slides.js';
import { landingPagesMigration } from './migrations/0015-landing-pages.js';
import { cacheBusMigration } from './migrations/0019-cache-bus.js';
import { socialSpeedMigration } from './migrations/0017-social-speed.js';
import { betaSpeedMigration } from './migrations/0020-beta-speed.js';
import { sessionsJobCrashesMigration } from './migrations/0023-sessions-job-crashes.js';
import { auditLogMigration } from './migrations/0024-audit-log.js';
import { storedResponsesMigration } from './migrations/0025-stored-responses.js';

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
      await addSerialId(db, db.schema.createTable('usage_records'))
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
        .addColumn('cost_nano_usd', wideInteger(db), (c) => c.notNull())
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
  '0004_livedocs_chat_conversations': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('livedocs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('icon', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('modified_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('livedocs_owner').on('livedocs').column('owner_id').execute();
      await db.schema
        .createTable('livedoc_shares')
        .addColumn('livedoc_id', 'text', (c) => c.notNull().references('livedocs.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('livedoc_shares_pk', ['livedoc_id', 'user_id'])
        .execute();
      await db.schema.createIndex('livedoc_shares_user').on('livedoc_shares').column('user_id').execute();
      await db.schema
        .createTable('livedoc_resources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('livedoc_id', 'text', (c) => c.notNull().references('livedocs.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('link', 'text', (c) => c.notNull())
        .addColumn('snippet', 'text', (c) => c.notNull())
        .addColumn('thumbnail', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_key', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('text', 'text')
        .addColumn('file_path', 'text')
        .addColumn('file_name', 'text')
        .addColumn('mime_type', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('modified_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('resources_livedoc').on('livedoc_resources').columns(['livedoc_id', 'created_at']).execute();
      await addSerialId(db, db.schema.createTable('resource_chunks'))
        .addColumn('resource_id', 'text', (c) => c.notNull().references('livedoc_resources.id').onDelete('cascade'))
        .addColumn('livedoc_id', 'text', (c) => c.notNull())
        .addColumn('ordinal', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer')
        .addColumn('resource_title', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chunks_resource').on('resource_chunks').column('resource_id').execute();
      // Full-text index over the chunks: FTS5 + triggers on SQLite, a GIN expression index on PostgreSQL.
      await createChunkIndex(db);
      await db.schema
        .createTable('rate_limit_windows')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('window_start', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_windows_pk', ['bucket', 'window_start'])
        .execute();
      await db.schema
        .createTable('chat_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('chat_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('conversation_threads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('livedoc_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('selected_resource_ids', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('conversation_turns')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('thread_id', 'text', (c) => c.notNull().references('conversation_threads.id').onDelete('cascade'))
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('stream_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('turns_thread').on('conversation_turns').columns(['thread_id', 'created_at']).execute();
      await db.schema
        .createTable('streams')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stream_events')
        .addColumn('stream_key', 'text', (c) => c.notNull().references('streams.key').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stream_events_pk', ['stream_key', 'seq'])
        .execute();
    },
  },
  '0005_model_listing': {
    async up(db: Kysely<any>) {
      // An administrator's list/hide decision per catalog model; absent = the catalog's own flag.
      await db.schema
        .createTable('model_listing')
        .addColumn('model_id', 'text', (c) => c.primaryKey())
        .addColumn('listed', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .execute();
    },
  },
  '0006_key_pages': {
    async up(db: Kysely<any>) {
      // Admin key listings page in (created_at, id) order, for everyone or one user.
      await db.schema.createIndex('api_keys_page').on('api_keys').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('api_keys_user_page').on('api_keys').columns(['user_id', 'created_at', 'id']).execute();
    },
  },
  '0007_list_totals': {
    async up(db: Kysely<any>) {
      // A LiveDoc page reads its rows from this index in order (no sort of everything the owner has)
      // and its total from list_totals (no count of everything either).
      await db.schema.createIndex('livedocs_owner_page').on('livedocs').columns(['owner_id', 'modified_at', 'id']).execute();
      await db.schema
        .createTable('list_totals')
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('list_totals_pk', ['owner_id', 'list'])
        .execute();
      await db
        .insertInto('list_totals')
        .columns(['owner_id', 'list', 'n'])
        .expression((eb: any) => eb.selectFrom('livedocs').select(['owner_id', eb.val('livedocs').as('list'), eb.fn.countAll().as('n')]).groupBy('owner_id'))
        .execute();
    },
  },
  '0008_usage_rollups': {
    async up(db: Kysely<any>) {
      // The usage report sums these rows instead of every record: one row per key, user, model and
      // UTC day, and one per key, user and model for all time (day ''), which the report reads. A
      // task's own usage is read from its few records through usage_task.
      let table = db.schema
        .createTable('usage_rollups')
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull());
      for (const counter of ['calls', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'web_searches', 'cost_nano_usd']) {
        table = table.addColumn(counter, wideInteger(db), (c) => c.notNull());
      }
      await table
        .addColumn('first_call_at', 'text', (c) => c.notNull())
        .addColumn('last_call_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_rollups_pk', ['day', 'user_id', 'api_key_id', 'model'])
        .execute();
      // Literals, not parameters, in the grouped expressions: PostgreSQL matches GROUP BY
      // expressions to the selected ones by their text.
      for (const daily of [true, false]) {
        const day = daily ? sql`substr(created_at, 1, 10)` : sql`''`;
        await db
          .insertInto('usage_rollups')
          .columns(['api_key_id', 'user_id', 'model', 'day', 'calls', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'web_searches', 'cost_nano_usd', 'first_call_at', 'last_call_at'])
          .expression((eb: any) =>
            eb
              .selectFrom('usage_records')
              .select([
                sql`coalesce(api_key_id, '')`.as('k'),
                'user_id',
                'model',
                day.as('d'),
                eb.fn.countAll().as('calls'),
                eb.fn.sum('input_tokens').as('input_tokens'),
                eb.fn.sum('output_tokens').as('output_tokens'),
                eb.fn.sum('cache_read_tokens').as('cache_read_tokens'),
                eb.fn.sum('cache_write_tokens').as('cache_write_tokens'),
                eb.fn.sum('web_searches').as('web_searches'),
                eb.fn.sum('cost_nano_usd').as('cost_nano_usd'),
                eb.fn.min('created_at').as('first_call_at'),
                eb.fn.max('created_at').as('last_call_at'),
              ])
              .groupBy([sql`coalesce(api_key_id, '')`, 'user_id', 'model', ...(daily ? [day] : [])]),
          )
          .execute();
      }
    },
  },
  '0010_social': socialMigration,
  '0011_beta_data': betaDataMigration,
  '0012_web_scrape_subtitles': webScrapeSubtitles,
  '0013_doc_tasks': docTasksMigration,
  '0014_slides': slidesMigration,
  '0015_landing_pages': landingPagesMigration,
  '0017_social_speed': socialSpeedMigration,
  '0019_cache_bus': cacheBusMigration,
  '0020_beta_speed': betaSpeedMigration,
  '0021_livedocs_one_owner_index': {
    async up(db: Kysely<any>) {
      // livedocs_owner_page (owner_id, modified_at, id) serves every lookup by owner the older
      // owner_id index did; keeping both cost every LiveDoc write a second index update.
      await db.schema.dropIndex('livedocs_owner').ifExists().execute();
    },
  },
  '0022_usage_unused_indexes': {
    async up(db: Kysely<any>) {
      // Usage reports read the rollups (0008); the raw records are read only by task (usage_task).
      // Every model call wrote these two indexes for nothing, inside the answer's commit.
      await db.schema.dropIndex('usage_key').ifExists().execute();
      await db.schema.dropIndex('usage_user').ifExists().execute();
    },
  },
  '0023_sessions_job_crashes': sessionsJobCrashesMigration,
  '0024_audit_log': auditLogMigration,
  '0025_stored_responses': storedResponsesMigration,
};
