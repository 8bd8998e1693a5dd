import type { Kysely, Migration } from 'kysely';
import { wideInteger } from '../dialect/schema.js';

/**
 * Issue 15: what the cache bus of several instances on one PostgreSQL needs (store/cache-bus.ts):
 * the instances alive now with the newest announcement each has applied, and the announcement
 * counter, and which instance writes each conversation stream. Created on SQLite too (one migration history for both), where nothing uses them.
 */
/** The table this migration fills, as it was then (never the app's current types). */
interface Tables {
  cache_epoch: { id: number; n: number };
}

export const cacheBusMigration: Migration = {
  async up(db: Kysely<Tables>) {
    await db.schema
      .createTable('cache_instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // Milliseconds on the database's clock, so instances on machines with skewed clocks agree.
      .addColumn('heartbeat_ms', wideInteger(db), (c) => c.notNull())
      .addColumn('acked_epoch', wideInteger(db), (c) => c.notNull())
      // The identity of the files directory a server instance uses (files/.facet-files-id): all
      // instances on one database must share one, or files written by one are missing on another.
      .addColumn('files_id', 'text')
      .execute();
    await db.schema
      .createTable('cache_epoch')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('n', wideInteger(db), (c) => c.notNull())
      .execute();
    await db.insertInto('cache_epoch').values({ id: 1, n: 0 }).execute();
    // The instance writing a stream: at start-up only streams whose writer is gone are closed as
    // orphans, not the live answers of the other instances.
    await db.schema.alterTable('streams').addColumn('writer', 'text').execute();
  },
};
