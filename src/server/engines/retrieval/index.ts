import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import { chunkText, type TextChunk } from './chunker.js';
import { ftsQuery, keywords } from './fts-query.js';

export interface ChunkHit {
  chunkId: number;
  resourceId: string;
  livedocId: string;
  ordinal: number;
  page: number | null;
  title: string;
  content: string;
  /** Higher is better: the negated bm25 of SQLite FTS5. */
  score: number;
}

/**
 * Replaces a resource's chunks. The FTS index follows through the triggers of migration 0004, so
 * this is the only write the retrieval index needs on create, update and delete.
 */
export async function indexResource(
  db: Kysely<Database>,
  resource: { id: string; livedoc_id: string; title: string; text: string | null },
  chunks?: TextChunk[],
): Promise<number> {
  const pieces = chunks ?? (resource.text ? chunkText(resource.text, { defaultTitle: resource.title }) : []);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('resource_chunks').where('resource_id', '=', resource.id).execute();
    for (let i = 0; i < pieces.length; i += 200) {
      const batch = pieces.slice(i, i + 200).map((c) => ({
        resource_id: resource.id,
        livedoc_id: resource.livedoc_id,
        ordinal: c.ordinal,
        page: c.page,
        resource_title: resource.title,
        title: c.title,
        content: c.content,
      }));
      await trx.insertInto('resource_chunks').values(batch).execute();
    }
  });
  return pieces.length;
}

export interface SearchScope {
  livedocIds: string[];
  resourceIds?: string[];
  page?: number;
  limit: number;
}

/** bm25 over resource title, section title and content; a title hit weighs twice a body hit. */
export async function searchChunks(db: Kysely<Database>, query: string, scope: SearchScope): Promise<ChunkHit[]> {
  const match = ftsQuery(query);
  if (!match || scope.livedocIds.length === 0) return [];
  const resourceFilter = scope.resourceIds ? sql`AND c.resource_id IN (${sql.join(scope.resourceIds)})` : sql``;
  const pageFilter = scope.page !== undefined ? sql`AND c.page = ${scope.page}` : sql``;
  const rows = await sql<{ id: number; resource_id: string; livedoc_id: string; ordinal: number; page: number | null; resource_title: string; title: string; content: string; rank: number }>`
    SELECT c.id, c.resource_id, c.livedoc_id, c.ordinal, c.page, c.resource_title, c.title, c.content, bm25(chunk_fts, 2.0, 2.0, 1.0) AS rank
    FROM chunk_fts JOIN resource_chunks c ON c.id = chunk_fts.rowid
    WHERE chunk_fts MATCH ${match}
      AND c.livedoc_id IN (${sql.join(scope.livedocIds)}) ${resourceFilter} ${pageFilter}
    ORDER BY rank
    LIMIT ${scope.limit * 3}`.execute(db);
  const stems = keywords(query).map(stem);
  const hits = rows.rows.map((r) => ({
    chunkId: r.id,
    resourceId: r.resource_id,
    livedocId: r.livedoc_id,
    ordinal: r.ordinal,
    page: r.page,
    title: r.title,
    content: r.content,
    score: Math.round((-r.rank + coverage(stems, `${r.resource_title} ${r.title} ${r.content}`)) * 10_000) / 10_000,
  }));
  return hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId).slice(0, scope.limit);
}

const stem = (w: string) => w.replace(/(ies|ing|ed|es|s)$/, '');

/**
 * Share of the query's words a chunk contains. bm25 alone says little in a small LiveDoc (a word in
 * half the chunks has an idf of zero); coverage keeps "matches more of the question" ranked first.
 */
function coverage(stems: string[], text: string): number {
  if (stems.length === 0) return 0;
  const have = new Set(keywords(text).map(stem));
  return stems.filter((s) => have.has(s)).length / stems.length;
}

/** The resources whose chunks rank best, best first: each resource scores by its best chunk. */
export async function routeResources(db: Kysely<Database>, query: string, livedocIds: string[], max: number): Promise<Array<{ resourceId: string; score: number }>> {
  const hits = await searchChunks(db, query, { livedocIds, limit: Math.max(30, max * 6) });
  const best = new Map<string, number>();
  for (const h of hits) if (!best.has(h.resourceId)) best.set(h.resourceId, h.score);
  return [...best.entries()].slice(0, max).map(([resourceId, score]) => ({ resourceId, score }));
}
