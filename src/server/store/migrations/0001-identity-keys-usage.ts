import type { Kysely, Migration } from 'kysely';
import { addSerialId, wideInteger } from '../dialect/schema.js';

/** Migration 0001_identity_keys_usage, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const identityKeysUsageMigration: Migration = {
  async up(db: Kysely<unknown>) {
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
};
