import type { Kysely, Migration } from 'kysely';
import { createChunkIndex } from '../dialect/fts.js';
import { addSerialId } from '../dialect/schema.js';

/** Migration 0004_livedocs_chat_conversations, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const livedocsChatConversationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
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
    await db.schema
      .createIndex('resources_livedoc')
      .on('livedoc_resources')
      .columns(['livedoc_id', 'created_at'])
      .execute();
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
};
