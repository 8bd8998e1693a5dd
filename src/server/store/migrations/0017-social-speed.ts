import type { Kysely, Migration } from 'kysely';
import { createOrderedSearch } from '../dialect/social-search.js';

/**
 * Social search at 1M posts (issue 13's bench): on SQLite the posts' full-text index is rebuilt with
 * the Latest order as its rowid (a ts_key column), backfilled from the posts; PostgreSQL keeps its
 * GIN index. Both get social_posts.search_terms, the post's hashtags, cashtags and mentions as index
 * tokens (the index's terms column, with the language). Frozen: never import the app's current types here.
 */
export const socialSpeedMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // Both stores: one insert code writes it; only SQLite's index reads it.
    await db.schema
      .alterTable('social_posts')
      .addColumn('search_terms', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await createOrderedSearch(db);
  },
};
