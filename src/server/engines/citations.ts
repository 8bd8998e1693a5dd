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

/**
 * Renumbers an answer's markers as it streams, so its sources are [1]..[k] in order of first
 * citation, as alignCitations does for a whole answer: each piece is given back renumbered, a
 * marker cut between two pieces ("[1" then "2]") held back until it is whole. `cited` gives the
 * original numbers in their new order. A marker naming no source stays as written.
 */
export function renumberingStream(count: number): {
  push: (piece: string) => string;
  end: () => string;
  cited: () => number[];
} {
  const order: number[] = [];
  let held = '';
  const renumber = (text: string) =>
    text.replace(MARKER, (m, d: string) => {
      const n = Number(d);
      if (n < 1 || n > count) return m;
      if (!order.includes(n)) order.push(n);
      return `[${order.indexOf(n) + 1}]`;
    });
  return {
    push(piece) {
      const text = held + piece;
      // A marker may go on in the next piece, and "[2](" is a link, not a marker: the end waits.
      const cut = /\[\d{0,3}\]?$/.exec(text)?.index ?? text.length;
      held = text.slice(cut);
      return renumber(text.slice(0, cut));
    },
    end() {
      const rest = renumber(held);
      held = '';
      return rest;
    },
    cited: () => [...order],
  };
}
