import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../store/database.js';
import { chunkText, type TextChunk } from './chunker.js';
import { markdownToPlainText } from '../../text/markdown.js';
import { letterSymbols, keywords, matchWords } from './fts-query.js';
import { namedTitleWords, questionStems } from './named-sources.js';
import { chunkSearchColumns, matchChunks } from '../../store/dialect/fts.js';

export interface ChunkHit {
  chunkId: number;
  resourceId: string;
  livedocId: string;
  ordinal: number;
  page: number | null;
  title: string;
  /** The headings the chunk sits under, outermost first; empty for chunks made before they were kept. */
  headings: string[];
  content: string;
  /** Higher is better: the store's relevance (negated bm25 on SQLite, ts_rank on PostgreSQL) plus word coverage. */
  score: number;
}

/**
 * Replaces a resource's chunks. The FTS index follows (triggers on SQLite, an expression index on
 * PostgreSQL, both from migration 0004), so
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
      // SQLite runs each insert synchronously and an await alone yields to no I/O: between batches
      // the event loop gets a turn, so a long document never holds it for the whole index.
      if (i > 0) await setImmediate();
      const batch = pieces.slice(i, i + 200).map((c) => ({
        resource_id: resource.id,
        livedoc_id: resource.livedoc_id,
        ordinal: c.ordinal,
        page: c.page,
        resource_title: resource.title,
        title: c.title,
        headings: c.headings?.length ? c.headings.join('\n') : null,
        content: c.content,
        ...chunkSearchColumns({
          resource_title: resource.title,
          title: c.title,
          content: c.content,
          searchContent: c.searchContent,
        }),
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
  /** Resources of these sources are not searched (decks and mindmaps the platform wrote). */
  excludeSources?: readonly string[];
}

/**
 * The store's full-text ranking (bm25 on SQLite, ts_rank on PostgreSQL; titles weigh twice the body)
 * plus the share of the query's words a chunk covers.
 */
export async function searchChunks(db: Kysely<Database>, query: string, scope: SearchScope): Promise<ChunkHit[]> {
  const words = matchWords(query);
  if (words.length === 0 || scope.livedocIds.length === 0) return [];
  const rows = await matchChunks(db, words, { ...scope, limit: scope.limit * 3 });
  const stems = keywords(query).map(stem);
  const flags = letterSymbols(query);
  const asked = new Set(keywords(query));
  const scored = rows.map((r) => ({
    row: r,
    score: r.relevance + coverage(stems, `${r.resource_title} ${r.title} ${r.content}`),
  }));
  // A question that names a source by its title ("winston's level option") means that source: its
  // passages gain a share of the best score, enough to pass a near miss from a source not named.
  const top = Math.max(0, ...scored.map((s) => s.score));
  const named = questionStems(query);
  const hits = scored.map(({ row: r, score }) => ({
    chunkId: r.id,
    resourceId: r.resource_id,
    livedocId: r.livedoc_id,
    ordinal: r.ordinal,
    page: r.page,
    title: r.title,
    headings: headingsOf(r),
    content: r.content,
    score:
      Math.round(
        (score +
          (namedTitleWords(named, r.resource_title).length ? NAMED_SOURCE_SHARE * top : 0) +
          writtenShare(flags, r.content) * OPTION_SHARE * top +
          (definesFlag(flags, r.content) ? OPTION_SHARE * top : 0) +
          (namesRow(asked, r.content) ? ROW_SHARE * top : 0)) *
          10_000,
      ) / 10_000,
  }));
  return collapseRepeats(
    hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId),
    scope.limit,
  );
}

/** The share of the best hit's score a passage of a source the question names gains. */
const NAMED_SOURCE_SHARE = 0.2;
/**
 * The share a passage gains that writes the one-letter options the question asks about: "-a" is
 * what the question is about, and the search cannot rank it (as a word, "a" is everywhere).
 */
const OPTION_SHARE = 0.2;

/** A stored chunk's heading path (one heading per line; null for chunks indexed before paths were kept). */
export const headingsOf = (row: { headings: string | null }): string[] =>
  row.headings ? row.headings.split('\n') : [];

/**
 * The share a passage gains that holds a table row whose key (its first cell) is a word of the
 * question: "the fallback of tick" asks for the row `tick`, which one line of a long table holds.
 */
const ROW_SHARE = 0.2;

/** Whether a table row of the text is keyed by one of the words. */
function namesRow(words: Set<string>, text: string): boolean {
  for (const m of text.matchAll(/^\|\s*([^|\n]+?)\s*\|/gm))
    if (words.has(m[1].replace(/[`*_\\]/g, '').toLowerCase())) return true;
  return false;
}

/**
 * Whether a line of the text opens with one of the options, as its entry does (`**-i**, **--ignore-case**`),
 * not a line mentioning it ("… scripts that already use **-i**").
 */
function definesFlag(flags: string[], text: string): boolean {
  if (flags.length === 0) return false;
  const lines = text.split('\n').map((l) => l.replace(/^[\s*_`\\]+/, '').toLowerCase());
  return flags.some((f) => lines.some((l) => l.startsWith(f) && !/[\p{L}\p{N}]/u.test(l[f.length] ?? '')));
}

/** The share of the one-letter options and directives ("-a", "%i") that the text writes as such. */
function writtenShare(flags: string[], text: string): number {
  if (flags.length === 0) return 0;
  const written = new Set(letterSymbols(text));
  return flags.filter((f) => written.has(f)).length / flags.length;
}

/**
 * Normalised chunk text: a repeat differs from its first occurrence at most in spacing, case or
 * markup (read as a Markdown tree, so `*` or `_` that are characters still count).
 */
export function contentKey(content: string): string {
  let key = contentKeys.get(content);
  if (key === undefined) {
    key = markdownToPlainText(content).replace(/\s+/g, ' ').trim().toLowerCase();
    contentKeys.set(content, key);
  }
  return key;
}
/**
 * Keys of recent chunks: a page or an answer searches several times and meets the same chunks, each
 * of which would be parsed as Markdown again. Bounded by characters held (the text and its key).
 */
const contentKeys = new LRUCache<string, string>({
  maxSize: 8 << 20,
  sizeCalculation: (plain, content) => plain.length + content.length + 1,
});

/**
 * Ranked hits with each text once: the same page added twice, or a passage two documents share,
 * is one passage (the best-ranked, so the first) and so one source. With a limit, the first
 * `limit` of them: the hits after are never read (a search fetches three times what it keeps).
 */
export function collapseRepeats<T extends { content: string }>(hits: T[], limit = Infinity): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const h of hits) {
    if (out.length >= limit) break;
    const k = contentKey(h.content);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(h);
  }
  return out;
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
export async function routeResources(
  db: Kysely<Database>,
  query: string,
  livedocIds: string[],
  max: number,
): Promise<Array<{ resourceId: string; score: number }>> {
  const hits = await searchChunks(db, query, { livedocIds, limit: Math.max(30, max * 6) });
  const best = new Map<string, number>();
  for (const h of hits) if (!best.has(h.resourceId)) best.set(h.resourceId, h.score);
  return [...best.entries()].slice(0, max).map(([resourceId, score]) => ({ resourceId, score }));
}
