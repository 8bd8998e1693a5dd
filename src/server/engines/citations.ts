/**
 * Citation markers and the sources they point at, kept one to one: every [n] in an answer names a
 * listed source, and every listed source is cited. A model (local or upstream) cites the passages
 * it used; sources it did not use are not listed, and a marker past the list is dropped.
 */

const MARKER = /\[(\d{1,3})\](?!\()/g;

/** The source numbers an answer cites, in order of first citation, each once. */
export function citedRefs(text: string, count: number): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(MARKER)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= count && !out.includes(n)) out.push(n);
  }
  return out;
}

/**
 * The answer renumbered so its sources are [1]..[k] in order of first citation, with the list of
 * exactly those sources; markers that name no source are removed, and a marker repeated back to
 * back ("[2][2]") is written once.
 */
export function alignCitations<T>(text: string, sources: T[]): { text: string; sources: T[] } {
  const cited = citedRefs(text, sources.length);
  // Only the space a removed marker leaves before punctuation goes: the source's own space before
  // `:=` or ` : ` is quoted text.
  const DROPPED = '\u0000';
  const renumbered = text
    .replace(MARKER, (_m, d: string) => {
      const at = cited.indexOf(Number(d));
      return at < 0 ? DROPPED : `[${at + 1}]`;
    })
    .replace(/(\[\d+\])(\s*\1)+/g, '$1')
    .replace(/ *\u0000+ *(?=[.,;:])/g, '')
    .replace(/ *\u0000+ */g, ' ')
    .replace(/[ \t]+$/gm, '');
  return { text: renumbered, sources: cited.map((n) => sources[n - 1]) };
}
