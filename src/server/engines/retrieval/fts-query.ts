import { fts5Match } from '../../store/dialect/fts.js';

/** Words too common to help ranking; dropping them keeps OR queries from matching everything. */
const STOP = new Set(
  'a an and are as at be but by can could did do does for from had has have how i if in into is it its me my of on or our she so than that the their them then there these they this to was we were what when where which who why will with would you your about tell please'.split(
    ' ',
  ),
);

/** The meaningful words of a text, lower-cased, in order, without duplicates. */
export function keywords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw.length < 2 || STOP.has(raw) || seen.has(raw)) continue;
    seen.add(raw);
    out.push(raw);
  }
  return out;
}

/**
 * A free-text query as an FTS5 MATCH expression: each keyword quoted (so no user text is read as
 * FTS syntax) and joined with OR, letting bm25 rank chunks that match more and rarer terms first.
 * Returns null when nothing searchable is left.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : fts5Match(words);
}

/** The words a search looks for: the query's keywords, at most 32. */
export function searchWords(text: string): string[] {
  return keywords(text).slice(0, 32);
}
