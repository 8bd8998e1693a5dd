import { sql, type QueryExecutorProvider, type RawBuilder, type Selectable } from 'kysely';
import type { ResourceChunksTable } from '../database.js';
import { dialectOf } from './kind.js';
import { indexText } from '../../text/segment.js';

/**
 * Full-text search over resource chunks, the one concern where the two stores share no SQL.
 * SQLite: an FTS5 table kept in step by triggers, ranked with bm25. PostgreSQL: a GIN index over a
 * weighted tsvector expression of the chunk columns (no extra column, so the table is the same on
 * both stores), ranked with ts_rank. Callers see one function and rows in rank order.
 */

/** Migration 0004's index over resource_chunks. */
export async function createChunkIndex(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE INDEX chunk_fts ON resource_chunks USING GIN ((${pgChunkVectorV1('resource_chunks')}))`.execute(
      db,
    );
    return;
  }
  // SQLite full-text index over the chunks (external content: the text is stored once), kept in
  // step by triggers so no code path can change chunks without re-indexing them.
  await sql`CREATE VIRTUAL TABLE chunk_fts USING fts5(resource_title, title, content, content='resource_chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`CREATE TRIGGER chunks_ai AFTER INSERT ON resource_chunks BEGIN
        INSERT INTO chunk_fts(rowid, resource_title, title, content) VALUES (new.id, new.resource_title, new.title, new.content); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER chunks_ad AFTER DELETE ON resource_chunks BEGIN
        INSERT INTO chunk_fts(chunk_fts, rowid, resource_title, title, content) VALUES ('delete', old.id, old.resource_title, old.title, old.content); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER chunks_au AFTER UPDATE ON resource_chunks BEGIN
        INSERT INTO chunk_fts(chunk_fts, rowid, resource_title, title, content) VALUES ('delete', old.id, old.resource_title, old.title, old.content);
        INSERT INTO chunk_fts(rowid, resource_title, title, content) VALUES (new.id, new.resource_title, new.title, new.content); END`.execute(
    db,
  );
}

/**
 * Migration 0004's indexed expression (frozen: 0029 replaces the index). Titles weigh A and content
 * B, as bm25's weights (2, 2, 1) do on SQLite. 'english' stems like FTS5's porter tokenizer.
 */
function pgChunkVectorV1(alias: string): RawBuilder<unknown> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql`setweight(to_tsvector('english'::regconfig, ${col('resource_title')}), 'A') || setweight(to_tsvector('english'::regconfig, ${col('title')}), 'A') || setweight(to_tsvector('english'::regconfig, ${col('content')}), 'B')`;
}

/**
 * The indexed expression since migration 0029; a query must repeat it exactly for PostgreSQL to
 * use the index. Each column is read segmented when it has a segmented copy (see
 * chunkSearchColumns), so Chinese and Japanese words are lexemes of their own.
 */
function pgChunkVector(alias: string): RawBuilder<unknown> {
  const col = (name: string) => sql`coalesce(${sql.ref(`${alias}.search_${name}`)}, ${sql.ref(`${alias}.${name}`)})`;
  return sql`setweight(to_tsvector('english'::regconfig, ${col('resource_title')}), 'A') || setweight(to_tsvector('english'::regconfig, ${col('title')}), 'A') || setweight(to_tsvector('english'::regconfig, ${col('content')}), 'B')`;
}

/**
 * The segmented copies of a chunk's indexed columns: each null when its text needs no segmentation.
 * A content copy found already (where the chunk was cut, off the event loop) is taken as it is.
 */
export function chunkSearchColumns(c: {
  resource_title: string;
  title: string;
  content: string;
  searchContent?: string | null;
}): {
  search_resource_title: string | null;
  search_title: string | null;
  search_content: string | null;
} {
  return {
    search_resource_title: indexText(c.resource_title),
    search_title: indexText(c.title),
    search_content: c.searchContent !== undefined ? c.searchContent : indexText(c.content),
  };
}

/** Migration 0029's index: as 0004's, reading each column's segmented copy when it has one. */
export async function createChunkIndexV2(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`DROP INDEX IF EXISTS chunk_fts`.execute(db);
    await sql`CREATE INDEX chunk_fts ON resource_chunks USING GIN ((${pgChunkVector('resource_chunks')}))`.execute(db);
    return;
  }
  const cols = (row: 'new' | 'old') =>
    sql.raw(['resource_title', 'title', 'content'].map((c) => `coalesce(${row}.search_${c}, ${row}.${c})`).join(', '));
  for (const t of ['chunks_ai', 'chunks_ad', 'chunks_au']) await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)}`.execute(db);
  await sql`CREATE TRIGGER chunks_ai AFTER INSERT ON resource_chunks BEGIN
        INSERT INTO chunk_fts(rowid, resource_title, title, content) VALUES (new.id, ${cols('new')}); END`.execute(db);
  await sql`CREATE TRIGGER chunks_ad AFTER DELETE ON resource_chunks BEGIN
        INSERT INTO chunk_fts(chunk_fts, rowid, resource_title, title, content) VALUES ('delete', old.id, ${cols('old')}); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER chunks_au AFTER UPDATE ON resource_chunks BEGIN
        INSERT INTO chunk_fts(chunk_fts, rowid, resource_title, title, content) VALUES ('delete', old.id, ${cols('old')});
        INSERT INTO chunk_fts(rowid, resource_title, title, content) VALUES (new.id, ${cols('new')}); END`.execute(db);
}

export type ChunkRow = Omit<
  Selectable<ResourceChunksTable>,
  'search_resource_title' | 'search_title' | 'search_content'
> & {
  /** How well the chunk matches: higher is better, comparable only within one store. */
  relevance: number;
};

export interface ChunkFilter {
  livedocIds: string[];
  resourceIds?: string[];
  page?: number;
  limit: number;
  /** Resources of these sources (what the platform wrote itself) are not searched. */
  excludeSources?: readonly string[];
}

/**
 * Chunks matching any of the words (already free of FTS syntax: letters and digits only), best
 * first. Each word is quoted for its engine, so user text is never read as query syntax.
 */
export async function matchChunks(
  db: QueryExecutorProvider,
  words: string[],
  filter: ChunkFilter,
): Promise<ChunkRow[]> {
  if (words.length === 0 || filter.livedocIds.length === 0) return [];
  const resourceFilter = filter.resourceIds ? sql`AND c.resource_id IN (${sql.join(filter.resourceIds)})` : sql``;
  const pageFilter = filter.page !== undefined ? sql`AND c.page = ${filter.page}` : sql``;
  // Left out inside the search, not after it: otherwise a LiveDoc's own decks and mindmaps fill the
  // limit and push its sources' chunks out.
  const sourceFilter = filter.excludeSources?.length
    ? sql`AND c.resource_id NOT IN (SELECT r.id FROM livedoc_resources r WHERE r.livedoc_id IN (${sql.join(filter.livedocIds)}) AND r.source IN (${sql.join([...filter.excludeSources])}))`
    : sql``;
  if (dialectOf(db) === 'postgres') {
    // OR of the words, each a quoted lexeme; the stemming happens in to_tsquery.
    const query = words.map((w) => `'${w.replace(/['\\]/g, '')}'`).join(' | ');
    const rows = await sql<ChunkRow>`
      SELECT c.id, c.resource_id, c.livedoc_id, c.ordinal, c.page, c.resource_title, c.title, c.headings, c.content,
        ts_rank('{0.1, 0.2, 0.5, 1.0}', ${pgChunkVector('c')}, q) AS relevance
      FROM resource_chunks c, to_tsquery('english'::regconfig, ${query}) q
      WHERE ${pgChunkVector('c')} @@ q
        AND c.livedoc_id IN (${sql.join(filter.livedocIds)}) ${resourceFilter} ${pageFilter} ${sourceFilter}
      ORDER BY relevance DESC, c.id
      LIMIT ${filter.limit}`.execute(db);
    return rows.rows.map((r) => ({ ...r, relevance: Number(r.relevance) }));
  }
  const match = fts5Match(words);
  // bm25 is lower-is-better; negated so both stores answer higher-is-better.
  const rows = await sql<ChunkRow>`
    SELECT c.id, c.resource_id, c.livedoc_id, c.ordinal, c.page, c.resource_title, c.title, c.headings, c.content, -bm25(chunk_fts, 2.0, 2.0, 1.0) AS relevance
    FROM chunk_fts JOIN resource_chunks c ON c.id = chunk_fts.rowid
    WHERE chunk_fts MATCH ${match}
      AND c.livedoc_id IN (${sql.join(filter.livedocIds)}) ${resourceFilter} ${pageFilter} ${sourceFilter}
    ORDER BY bm25(chunk_fts, 2.0, 2.0, 1.0)
    LIMIT ${filter.limit}`.execute(db);
  return rows.rows;
}

/** FTS5 MATCH text: each word a quoted phrase, joined with OR, so bm25 ranks chunks matching more and rarer words first. */
export function fts5Match(words: string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
}
