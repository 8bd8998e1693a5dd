import type { AppContext } from '../context.js';
import { collapseRepeats, headingsOf, searchChunks, type ChunkHit } from '../engines/retrieval/index.js';
import { keywords, letterSymbols, searchWords } from '../engines/retrieval/fts-query.js';
import { isEnglishWord } from '../text/english-frequency.js';
import { findResourcesByIds } from '../store/resources.repo.js';
import type { Passage } from '../engines/answer-writer.js';
import { answerIntent, FORM_WORDS } from '../engines/answer-intent.js';
import { GENERATED_SOURCES, isGenerated } from './resource-rows.js';
import { termsOf } from '../text/terms.js';

export interface Grounding {
  passages: Passage[];
  /** One entry per cited resource, in marker order: [n] is resources[n-1] (spec 2.7). */
  resources: Array<{ id: string; link: string; title: string; snippet: string }>;
}

export interface GroundOptions {
  /** The question as asked: a summary, comparison or list question with no matching passage reads the LiveDoc's openings. */
  question?: string;
  /** Decks, pages and mindmaps facet wrote may ground the answer too (off by default: facet does not quote itself). */
  includeGenerated?: boolean;
}

const PER_QUERY = 8;
const MAX_PASSAGES = 6;
/** Chunks from the start of each resource a broad question ("summarise ...") reads when nothing matches its words. */
const OPENING_CHUNKS = 2;

/**
 * Runs each analysed query over the given scope, merges the hits (best score per chunk, each text
 * once), keeps the best few passages and numbers their resources in order of relevance. What
 * facet generated is left out unless asked for.
 */
export async function ground(
  ctx: Pick<AppContext, 'db'>,
  queries: string[],
  scope: { livedocIds: string[]; resourceIds?: string[] },
  options: GroundOptions = {},
): Promise<Grounding> {
  const lists: ChunkHit[][] = [];
  // What facet generated is left out of the search itself, so it takes no place among the hits.
  const mine = options.includeGenerated ? {} : { excludeSources: GENERATED_SOURCES };
  for (const q of queries) {
    // The words that name the answer's form ("summarise", "compare") are not what the sources are about.
    const searched = q
      .split(/\s+/)
      .filter((w) => !FORM_WORDS.has(w))
      .join(' ');
    if (searched) lists.push(await searchChunks(ctx.db, searched, { ...scope, limit: PER_QUERY * 2, ...mine }));
  }
  const rows = new Map(
    (await findResourcesByIds(ctx.db, [...new Set(lists.flat().map((h) => h.resourceId))])).map((r) => [r.id, r]),
  );
  const kept = (h: ChunkHit) =>
    rows.has(h.resourceId) && (options.includeGenerated || !isGenerated(rows.get(h.resourceId)!));
  const found = collapseRepeats(inTurn(lists.map((l) => l.filter(kept))));
  const question = options.question ?? queries.join(' ');
  let hits = withNamedSources(pastTheName(found, question), question, rows).slice(0, MAX_PASSAGES);
  if (hits.length < 2 && options.question && answerIntent(options.question) !== 'answer') {
    const opening = await openings(ctx, scope, options.includeGenerated ?? false);
    for (const r of await findResourcesByIds(ctx.db, [...new Set(opening.map((h) => h.resourceId))])) rows.set(r.id, r);
    hits = collapseRepeats([...hits, ...opening]).slice(0, MAX_PASSAGES);
  }
  // A question that only names a source ("What is gzip?") is answered by its opening (its first
  // chunks: the first may hold no more than a title): brought first.
  const named = options.question ? namedResource(options.question, [...rows.values()]) : undefined;
  if (named) {
    const opening = await openings(ctx, { ...scope, resourceIds: [named] }, options.includeGenerated ?? false);
    hits = collapseRepeats([...opening, ...hits]).slice(0, MAX_PASSAGES);
  }
  // A source's passages in its own order: the section a chunk opens comes before its continuation,
  // so the writer reads a section's first paragraph first. Sources stay in order of relevance.
  const rank = new Map<string, number>();
  hits.forEach((h, i) => rank.set(h.resourceId, rank.get(h.resourceId) ?? i));
  hits = [...hits].sort((a, b) => rank.get(a.resourceId)! - rank.get(b.resourceId)! || a.ordinal - b.ordinal);
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
    // The chunk's headings go with it: a writer can tell "Refund times" from "Exceptions", and an
    // option's section (`options` › `useFallback`) says what the option belongs to.
    const section = sectionHeadings(h, r.title);
    passages.push({
      ref,
      title: r.title,
      link: r.link,
      content: section + h.content,
      opening: h.ordinal < OPENING_CHUNKS,
    });
  }
  return { passages, resources };
}

/**
 * The headings a passage opens with, nested as in its document: the chunk's path (or, for a chunk
 * made before paths were kept, its title), without the source's own title, which it has apart.
 */
function sectionHeadings(h: ChunkHit, title: string): string {
  const path = (h.headings.length ? h.headings : [h.title]).filter(Boolean);
  const own = path[0] === title ? path.slice(1) : path;
  return own.map((heading, i) => `${'#'.repeat(Math.min(i + 2, 6))} ${heading}\n\n`).join('');
}

/** The one resource whose title holds every term of the question, if the question holds any. */
function namedResource(question: string, resources: Array<{ id: string; title: string }>): string | undefined {
  const terms = termsOf(question);
  if (terms.length === 0) return undefined;
  const named = resources.filter((r) => {
    const title = new Set(termsOf(r.title));
    return terms.every((t) => title.has(t));
  });
  return named.length === 1 ? named[0].id : undefined;
}

/**
 * The hits, with the best of each source the question names by its title brought within the
 * passages kept: "How do I install dedent?" is about dedent, though every other README found says
 * "install" where dedent's says `npm i dedent`.
 */
function withNamedSources(hits: ChunkHit[], question: string, rows: Map<string, { title: string }>): ChunkHit[] {
  // Words as written, not stems ("commands" does not name Commander.js), and no English word:
  // "date" asks about dates more often than it names date(1).
  const asked = new Set(keywords(question).filter((w) => !isEnglishWord(w)));
  const titles = new Map(
    [...rows].map(([id, r]) => [id, keywords(r.title).filter((w) => w.length >= 3 && asked.has(w))]),
  );
  // A word every source's title holds ("readme") names none of them.
  const everywhere = (w: string) => [...titles.values()].every((words) => words.includes(w));
  const named = [...titles].filter(([, words]) => words.some((w) => !everywhere(w))).map(([id]) => id);
  if (named.length === 0 || named.length > 2) return hits;
  const kept = hits.slice(0, MAX_PASSAGES);
  const missing = named
    .filter((id) => !kept.some((h) => h.resourceId === id))
    .map((id) => hits.find((h) => h.resourceId === id))
    .filter((h) => h !== undefined);
  if (missing.length === 0) return hits;
  return [...kept.slice(0, MAX_PASSAGES - missing.length), ...missing];
}

/**
 * Each source's hits holding a word of the question beyond those all of them hold, first among its
 * places: a name in every heading of a source (textlint-rule-no-mixed-zenkaku-and-hankaku-alphabet)
 * picks the source; the question's other words ("license") pick its passages, when the name is
 * most of what the question says. Other sources' hits keep their places.
 */
function pastTheName(hits: ChunkHit[], question: string): ChunkHit[] {
  // A flag the question names ("-w") is one of its words, though a letter alone is no search term.
  const asked = new Set(termsOf([...searchWords(question), ...letterSymbols(question)].join(' ')));
  const held = new Map(
    hits.map((h) => [h.chunkId, termsOf(`${h.headings.join(' ')} ${h.content}`).filter((t) => asked.has(t))]),
  );
  const bySource = new Map<string, ChunkHit[]>();
  for (const h of hits) bySource.set(h.resourceId, [...(bySource.get(h.resourceId) ?? []), h]);
  const order = new Map<number, ChunkHit>();
  for (const own of bySource.values()) {
    if (own.length < 2) continue;
    const everywhere = held.get(own[0].chunkId)!.filter((t) => own.every((h) => held.get(h.chunkId)!.includes(t)));
    const more = own.filter((h) => held.get(h.chunkId)!.some((t) => !everywhere.includes(t)));
    // Only where the name is most of what the question says: then its words outweigh the rest.
    const said = new Set(own.flatMap((h) => held.get(h.chunkId)!));
    if (everywhere.length * 2 < said.size || more.length === 0) continue;
    const reordered = [...more, ...own.filter((h) => !more.includes(h))];
    own.forEach((h, i) => order.set(h.chunkId, reordered[i]));
  }
  return hits.map((h) => order.get(h.chunkId) ?? h);
}

/**
 * The queries' hits merged in turn: each query's best chunk, then each one's second, and so on.
 * Scores of different queries do not compare (the whole question's words outscore one part's), so
 * by score alone its hits crowded out what a part of it, or another source, needs; and a part's
 * second chunk (a table of constructors after the section that names one) is as much its answer.
 */
function inTurn(lists: ChunkHit[][]): ChunkHit[] {
  const out: ChunkHit[] = [];
  const taken = new Set<number>();
  const take = (h: ChunkHit | undefined) => {
    if (h && !taken.has(h.chunkId)) {
      taken.add(h.chunkId);
      out.push(h);
    }
  };
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let k = 0; k < longest; k++) lists.forEach((l) => take(l[k]));
  return out;
}

/** The first chunks of the newest resources in scope, for a question about the LiveDoc as a whole. */
async function openings(
  ctx: Pick<AppContext, 'db'>,
  scope: { livedocIds: string[]; resourceIds?: string[] },
  includeGenerated: boolean,
): Promise<ChunkHit[]> {
  if (scope.livedocIds.length === 0) return [];
  let q = ctx.db
    .selectFrom('resource_chunks')
    .innerJoin('livedoc_resources', 'livedoc_resources.id', 'resource_chunks.resource_id')
    .select([
      'resource_chunks.id',
      'resource_chunks.resource_id',
      'resource_chunks.livedoc_id',
      'resource_chunks.ordinal',
      'resource_chunks.page',
      'resource_chunks.title',
      'resource_chunks.headings',
      'resource_chunks.content',
      'livedoc_resources.source',
    ])
    .where('resource_chunks.livedoc_id', 'in', scope.livedocIds)
    .where('resource_chunks.ordinal', '<', OPENING_CHUNKS);
  if (scope.resourceIds)
    q = q.where('resource_chunks.resource_id', 'in', scope.resourceIds.length ? scope.resourceIds : ['']);
  const rows = await q
    .orderBy('livedoc_resources.created_at', 'desc')
    .orderBy('resource_chunks.ordinal')
    .limit(MAX_PASSAGES * 4)
    .execute();
  return rows
    .filter((r) => includeGenerated || !isGenerated(r))
    .map((r) => ({
      chunkId: r.id,
      resourceId: r.resource_id,
      livedocId: r.livedoc_id,
      ordinal: r.ordinal,
      page: r.page,
      title: r.title,
      headings: headingsOf(r),
      content: r.content,
      score: 0,
    }));
}
