import { sql, type Kysely, type Migration } from 'kysely';
import { createPostIndexV2 } from '../dialect/social-fts.js';
import { createOrderedSearchTriggersV2 } from '../dialect/social-search.js';
import { indexText } from '../../text/segment.js';

/**
 * Migration 0034_social_words, frozen in time: it takes Kysely<unknown>. Posts in scripts written
 * without spaces are searched by their words, as chunks are since 0029: social_posts.search_content
 * holds the segmented content (null when none is needed), the index reads it in place of the
 * content, and existing posts are re-indexed.
 */
export const socialWordsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('social_posts').addColumn('search_content', 'text').execute();
    await createOrderedSearchTriggersV2(db);
    await createPostIndexV2(db);
    let after = '';
    for (;;) {
      const rows = await sql<{ id: string; content: string }>`
        SELECT id, content FROM social_posts WHERE id > ${after} ORDER BY id LIMIT 1000`.execute(db);
      if (rows.rows.length === 0) break;
      for (const r of rows.rows) {
        const words = indexText(r.content);
        if (words !== null) await sql`UPDATE social_posts SET search_content = ${words} WHERE id = ${r.id}`.execute(db);
      }
      after = rows.rows[rows.rows.length - 1].id;
    }
  },
};
