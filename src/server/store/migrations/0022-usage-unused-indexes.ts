import type { Kysely, Migration } from 'kysely';

/** Migration 0022_usage_unused_indexes, frozen in time: it takes Kysely<unknown> and never imports the app's current types. */
export const usageUnusedIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // Usage reports read the rollups (0008); the raw records are read only by task (usage_task).
    // Every model call wrote these two indexes for nothing, inside the answer's commit.
    await db.schema.dropIndex('usage_key').ifExists().execute();
    await db.schema.dropIndex('usage_user').ifExists().execute();
  },
};
