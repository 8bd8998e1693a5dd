import type { RetrieveResult } from '../../contract/livedocs.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findResource, findResourcesByIds } from '../store/resources.repo.js';
import { routeResources, searchChunks, type ChunkHit } from '../engines/retrieval/index.js';
import { access } from './livedocs.service.js';
import { resourceNotFound } from './resources.service.js';

type Ctx = Pick<AppContext, 'db' | 'now'>;

const DEFAULT_TOP_K = 10;
const DEFAULT_ROUTE = 5;

export async function toResults(ctx: Ctx, hits: ChunkHit[]): Promise<RetrieveResult[]> {
  const resources = new Map((await findResourcesByIds(ctx.db, [...new Set(hits.map((h) => h.resourceId))])).map((r) => [r.id, r]));
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
export async function retrieve(ctx: Ctx, userId: string, livedocId: string, input: { query: string; resource_ids?: string[]; top_k?: number }): Promise<RetrieveResult[]> {
  await access(ctx, userId, livedocId, 'read');
  const topK = input.top_k ?? DEFAULT_TOP_K;
  if (!input.resource_ids) {
    // Routed: the best chunks of the resources the query routes to, from one ranked search.
    const hits = await searchChunks(ctx.db, input.query, { livedocIds: [livedocId], limit: Math.max(topK * 3, 30) });
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

export async function route(ctx: Ctx, userId: string, livedocId: string, input: { query: string; max_resources?: number }): Promise<string[]> {
  await access(ctx, userId, livedocId, 'read');
  return (await routeResources(ctx.db, input.query, [livedocId], input.max_resources ?? DEFAULT_ROUTE)).map((r) => r.resourceId);
}

/**
 * The chunks of one slide of a deck, ranked against the query (or the slide's own title when none
 * is given). Every chunk of the slide is returned: those the query does not match come last with
 * score 0, in slide order.
 */
export async function pptRetrieve(ctx: Ctx, userId: string, livedocId: string, input: { resource_id: string; page_number: number; query?: string }): Promise<RetrieveResult[]> {
  await access(ctx, userId, livedocId, 'read');
  const r = await findResource(ctx.db, livedocId, input.resource_id);
  if (!r) throw resourceNotFound(input.resource_id);
  if (r.content_type !== 'ai_ppt') throw new HttpError('UNSUPPORTED_RESOURCE_TYPE', `resource ${r.id} is not a slide deck (it is ${r.content_type})`);
  const rows = await ctx.db.selectFrom('resource_chunks').selectAll().where('resource_id', '=', r.id).where('page', '=', input.page_number).orderBy('ordinal').execute();
  if (rows.length === 0) {
    const pages = await ctx.db.selectFrom('resource_chunks').select((eb) => eb.fn.max<number>('page').as('n')).where('resource_id', '=', r.id).executeTakeFirst();
    throw new HttpError('INVALID_PARAMETER', `page_number ${input.page_number} has no text; the deck has ${pages?.n ?? 0} slide(s)`);
  }
  const query = input.query ?? rows[0].title;
  const ranked = await searchChunks(ctx.db, query, { livedocIds: [livedocId], resourceIds: [r.id], page: input.page_number, limit: rows.length });
  const seen = new Set(ranked.map((h) => h.chunkId));
  const rest: ChunkHit[] = rows
    .filter((c) => !seen.has(c.id))
    .map((c) => ({ chunkId: c.id, resourceId: r.id, livedocId, ordinal: c.ordinal, page: c.page, title: c.title, content: c.content, score: 0 }));
  return toResults(ctx, [...ranked, ...rest]);
}
