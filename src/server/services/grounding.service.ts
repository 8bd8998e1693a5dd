import type { AppContext } from '../context.js';
import { searchChunks, type ChunkHit } from '../engines/retrieval/index.js';
import { findResourcesByIds } from '../store/resources.repo.js';
import type { Passage } from '../engines/answer-writer.js';

export interface Grounding {
  passages: Passage[];
  /** One entry per cited resource, in marker order: [n] is resources[n-1] (spec 2.7). */
  resources: Array<{ id: string; link: string; title: string; snippet: string }>;
}

const PER_QUERY = 8;
const MAX_PASSAGES = 6;

/**
 * Runs each analysed query over the given scope, merges the hits (best score per chunk), keeps the
 * best few passages and numbers their resources in order of relevance.
 */
export async function ground(ctx: Pick<AppContext, 'db'>, queries: string[], scope: { livedocIds: string[]; resourceIds?: string[] }): Promise<Grounding> {
  const best = new Map<number, ChunkHit>();
  for (const q of queries) {
    for (const h of await searchChunks(ctx.db, q, { ...scope, limit: PER_QUERY })) {
      const prev = best.get(h.chunkId);
      if (!prev || h.score > prev.score) best.set(h.chunkId, h);
    }
  }
  const hits = [...best.values()].sort((a, b) => b.score - a.score).slice(0, MAX_PASSAGES);
  const rows = new Map((await findResourcesByIds(ctx.db, [...new Set(hits.map((h) => h.resourceId))])).map((r) => [r.id, r]));
  const refOf = new Map<string, number>();
  const resources: Grounding['resources'] = [];
  const passages: Passage[] = [];
  for (const h of hits) {
    const r = rows.get(h.resourceId);
    if (!r) continue;
    let ref = refOf.get(r.id);
    if (ref === undefined) {
      resources.push({ id: r.id, link: r.link, title: r.title, snippet: r.snippet.slice(0, 300) });
      ref = resources.length;
      refOf.set(r.id, ref);
    }
    passages.push({ ref, title: r.title, link: r.link, content: h.content });
  }
  return { passages, resources };
}
