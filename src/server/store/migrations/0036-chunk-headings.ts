import type { Kysely, Migration } from 'kysely';

/**
 * Issue 44: a chunk keeps the whole path of headings it sits under (`API`, `options`,
 * `useFallback`), not only the last, so an answer's units know every section they are in. Chunks
 * made before have none (null): they read under their title alone, as before, until re-indexed.
 */
export const chunkHeadingsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('resource_chunks').addColumn('headings', 'text').execute();
  },
};
