import { sql, type Kysely, type Migration } from 'kysely';
import { chunkSearchColumns, createChunkIndexV2 } from '../dialect/fts.js';

/**
 * Migration 0029_chunk_words, frozen in time: it takes Kysely<unknown>. Chunks in scripts written
 * without spaces (Chinese, Japanese, Thai) are indexed as the words Intl.Segmenter finds: three
 * nullable columns hold the segmented title, section and content (null when the text needs none),
 * the full-text index reads them in place of the text, and existing chunks are re-indexed.
 */
export const chunkWordsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['search_resource_title', 'search_title', 'search_content'])
      await db.schema.alterTable('resource_chunks').addColumn(column, 'text').execute();
    await createChunkIndexV2(db);
    // Re-index what needs it: the update trigger (SQLite) or the expression index (PostgreSQL) follows.
    let after = 0;
    for (;;) {
      const rows = await sql<{ id: number; resource_title: string; title: string; content: string }>`
        SELECT id, resource_title, title, content FROM resource_chunks WHERE id > ${after} ORDER BY id LIMIT 500`.execute(
        db,
      );
      if (rows.rows.length === 0) break;
      for (const r of rows.rows) {
        const cols = chunkSearchColumns(r);
        if (cols.search_resource_title === null && cols.search_title === null && cols.search_content === null) continue;
        await sql`UPDATE resource_chunks SET search_resource_title = ${cols.search_resource_title}, search_title = ${cols.search_title}, search_content = ${cols.search_content} WHERE id = ${r.id}`.execute(
          db,
        );
      }
      after = Number(rows.rows[rows.rows.length - 1].id);
    }
  },
};
