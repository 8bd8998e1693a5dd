import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import { dialectOf } from './kind.js';

/**
 * Full-text search over social posts, for the words and phrases of the advanced search syntax.
 * SQLite: an FTS5 table over social_posts.content kept in step by triggers. PostgreSQL: a GIN index
 * over the content's tsvector. Both use no stemming and no stop words ('simple' / unicode61), since
 * posts come in many languages and a search for a word should find that word.
 */

/** Migration 0010's index over social_posts (SQLite's is replaced by 0017's time-ordered one, see social-search.ts). */
export async function createPostIndex(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE INDEX social_posts_fts ON social_posts USING GIN ((to_tsvector('simple'::regconfig, ${sql.ref('social_posts.content')})))`.execute(
      db,
    );
    return;
  }
  await sql`CREATE VIRTUAL TABLE social_fts USING fts5(content, content='social_posts', content_rowid='rowid_', tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`CREATE TRIGGER social_posts_ai AFTER INSERT ON social_posts BEGIN
        INSERT INTO social_fts(rowid, content) VALUES (new.rowid_, new.content); END`.execute(db);
  await sql`CREATE TRIGGER social_posts_ad AFTER DELETE ON social_posts BEGIN
        INSERT INTO social_fts(social_fts, rowid, content) VALUES ('delete', old.rowid_, old.content); END`.execute(db);
  await sql`CREATE TRIGGER social_posts_au AFTER UPDATE OF content ON social_posts BEGIN
        INSERT INTO social_fts(social_fts, rowid, content) VALUES ('delete', old.rowid_, old.content);
        INSERT INTO social_fts(rowid, content) VALUES (new.rowid_, new.content); END`.execute(db);
}

/**
 * The indexed expression since migration 0034 (the content, or its segmented copy when it has one);
 * a query repeats it exactly so PostgreSQL uses the index.
 */
export function pgVector(alias: string): RawBuilder<unknown> {
  return sql`to_tsvector('simple'::regconfig, coalesce(${sql.ref(`${alias}.search_content`)}, ${sql.ref(`${alias}.content`)}))`;
}

/** Migration 0034's PostgreSQL index: 0010's over the segmented copy when there is one. */
export async function createPostIndexV2(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`DROP INDEX IF EXISTS social_posts_fts`.execute(db);
  await sql`CREATE INDEX social_posts_fts ON social_posts USING GIN ((${pgVector('social_posts')}))`.execute(db);
}
