import type { RetrieveResult } from '../../contract/livedocs.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findResource, findResourcesByIds } from '../store/resources.repo.js';
import { headingsOf, routeResources, searchChunks, type ChunkHit } from '../engines/retrieval/index.js';
import { access } from './livedocs.service.js';
import { GENERATED_SOURCES, isGenerated, resourceNotFound } from './resource-rows.js';

type Ctx = Pick<AppContext, 'db' | 'now'>;

const DEFAULT_TOP_K = 10;
const DEFAULT_ROUTE = 5;

/** The metadata every retrieval result carries (the contract leaves metadata open, so callers read it typed here). */
type PassageMetadata = {
  chunk_id: number;
  chunk_index: number;
  section: string;
  page_number?: number;
  resource_type: string | null;
  link: string;
  livedoc_short_id: string;
};
export type RetrievedPassage = RetrieveResult & { metadata: PassageMetadata };

export async function toResults(ctx: Ctx, hits: ChunkHit[]): Promise<RetrievedPassage[]> {
  const resources = new Map(
    (await findResourcesByIds(ctx.db, [...new Set(hits.map((h) => h.resourceId))])).map((r) => [r.id, r]),
  );
  return hits.map((h) => {
    const r = resources.get(h.resourceId);
    return {
      id: h.resourceId,
      title: r?.title ?? h.title,
      content: h.content,
      score: h.score,
      metadata: {
        chunk_id: h.chunkId,
        chunk_index: h.ordinal,
        section: h.title,
        ...(h.page !== null ? { page_number: h.page } : {}),
        resource_type: r?.resource_type ?? null,
        link: r?.link ?? '',
        livedoc_short_id: h.livedocId,
      },
    };
  });
}

/** Ranked excerpts: from the given resources, or from those the query routes to. */
export async function retrieve(
  ctx: Ctx,
  userId: string,
  livedocId: string,
  input: { query: string; resource_ids?: string[]; top_k?: number; include_generated?: boolean },
): Promise<RetrievedPassage[]> {
  await access(ctx, userId, livedocId, 'read');
  const topK = input.top_k ?? DEFAULT_TOP_K;
  if (!input.resource_ids) {
    // Routed: the best chunks of the resources the query routes to, from one ranked search.
    // What the platform wrote earlier is not a source unless asked for, as in answers
    // (resource-rows GENERATED_SOURCES), and takes no place among the hits; resources named by id
    // are searched as named.
    const hits = await searchChunks(ctx.db, input.query, {
      livedocIds: [livedocId],
      limit: Math.max(topK * 3, 30),
      ...(input.include_generated ? {} : { excludeSources: GENERATED_SOURCES }),
    });
    const routed = [...new Set(hits.map((h) => h.resourceId))].slice(0, DEFAULT_ROUTE);
    return toResults(ctx, hits.filter((h) => routed.includes(h.resourceId)).slice(0, topK));
  }
  const resourceIds = [...new Set(input.resource_ids)];
  const found = await findResourcesByIds(ctx.db, resourceIds);
  const mine = new Set(found.filter((r) => r.livedoc_id === livedocId).map((r) => r.id));
  const missing = resourceIds.find((id) => !mine.has(id));
  if (missing) throw resourceNotFound(missing);
  const hits = await searchChunks(ctx.db, input.query, { livedocIds: [livedocId], resourceIds, limit: topK });
  return toResults(ctx, hits);
}

export async function route(
  ctx: Ctx,
  userId: string,
  livedocId: string,
  input: { query: string; max_resources?: number; include_generated?: boolean },
): Promise<string[]> {
  await access(ctx, userId, livedocId, 'read');
  const max = input.max_resources ?? DEFAULT_ROUTE;
  const ids = (await routeResources(ctx.db, input.query, [livedocId], input.include_generated ? max : max * 2)).map(
    (r) => r.resourceId,
  );
  if (input.include_generated) return ids;
  const generated = new Set((await findResourcesByIds(ctx.db, ids)).filter(isGenerated).map((r) => r.id));
  return ids.filter((id) => !generated.has(id)).slice(0, max);
}

/**
 * One slide of a deck and what supports it. With `query` (a local addition), the slide's chunks
 * ranked against it. Without, the slide's own text first, then the LiveDoc's other chunks ranked
 * against that text (the passages the slide rests on), up to DEFAULT_TOP_K in all.
 */
export async function pptRetrieve(
  ctx: Ctx,
  userId: string,
  livedocId: string,
  input: { resource_id: string; page_number: number; query?: string },
): Promise<RetrieveResult[]> {
  await access(ctx, userId, livedocId, 'read');
  const r = await findResource(ctx.db, livedocId, input.resource_id);
  if (!r) throw resourceNotFound(input.resource_id);
  if (r.content_type !== 'ai_ppt')
    throw new HttpError(
      'UNSUPPORTED_RESOURCE_TYPE',
      `resource ${r.id} is not a slide deck (it is ${r.resource_type === 'file' ? r.content_type : r.resource_type}); ppt-retrieve reads decks only`,
    );
  const rows = await ctx.db
    .selectFrom('resource_chunks')
    .selectAll()
    .where('resource_id', '=', r.id)
    .where('page', '=', input.page_number)
    .orderBy('ordinal')
    .execute();
  if (rows.length === 0) {
    const pages = await ctx.db
      .selectFrom('resource_chunks')
      .select((eb) => eb.fn.max<number>('page').as('n'))
      .where('resource_id', '=', r.id)
      .executeTakeFirst();
    throw new HttpError(
      'INVALID_PARAMETER',
      `page_number ${input.page_number} is out of range: the deck has ${pages?.n ?? 0} slide(s)`,
    );
  }
  const own = (c: (typeof rows)[number], score: number): ChunkHit => ({
    chunkId: c.id,
    resourceId: r.id,
    livedocId,
    ordinal: c.ordinal,
    page: c.page,
    title: c.title,
    headings: headingsOf(c),
    content: c.content,
    score,
  });
  if (input.query) {
    const ranked = await searchChunks(ctx.db, input.query, {
      livedocIds: [livedocId],
      resourceIds: [r.id],
      page: input.page_number,
      limit: rows.length,
    });
    const seen = new Set(ranked.map((h) => h.chunkId));
    return toResults(ctx, [...ranked, ...rows.filter((c) => !seen.has(c.id)).map((c) => own(c, 0))]);
  }
  const slideText = rows.map((c) => `${c.title}\n${c.content}`).join('\n');
  const related = (await searchChunks(ctx.db, slideText, { livedocIds: [livedocId], limit: DEFAULT_TOP_K * 2 })).filter(
    (h) => h.resourceId !== r.id,
  );
  const top = related[0]?.score ?? 0;
  // The slide's own text ranks first: it scores above every related chunk.
  return toResults(
    ctx,
    [...rows.map((c) => own(c, Math.round((top + 1) * 10_000) / 10_000)), ...related].slice(
      0,
      Math.max(DEFAULT_TOP_K, rows.length),
    ),
  );
}
