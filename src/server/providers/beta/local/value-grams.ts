import type { LiteralHint, ValueTest } from '../filter-compiler.js';

/**
 * The three-letter groups (trigrams, ASCII case folded) of a column's distinct values, so a `like`
 * or `ilike` condition tests only the values that hold its pattern's literal runs: for `%review%`
 * over the 25,000 distinct anchors of a 1M-row target, the ~1,700 that hold `rev`, `evi`, `vie` and
 * `iew` rather than all of them. The answer stays the compiler's own test on each candidate; a value
 * that is not a candidate cannot hold the runs, so its answer is known without testing.
 *
 * Only values that are all ASCII are indexed (ASCII case folding is then exactly what a case-
 * insensitive match does; see the regexp Canonicalize rule, which never maps a non-ASCII letter to an
 * ASCII one); the others (and null, lists) are always tested.
 */
export class ValueGrams {
  private readonly postings = new Map<number, Int32Array>();
  /** Codes of the values the grams say nothing about: always tested. */
  private readonly unindexed: Int32Array;

  constructor(values: readonly unknown[]) {
    const lists = new Map<number, number[]>();
    const others: number[] = [];
    for (let c = 0; c < values.length; c++) {
      const v = values[c];
      if (typeof v !== 'string' || !ASCII.test(v)) {
        others.push(c);
        continue;
      }
      const text = v.toLowerCase();
      for (let i = 0; i + 3 <= text.length; i++) {
        const g = gram(text, i);
        let list = lists.get(g);
        if (!list) lists.set(g, (list = []));
        // Codes arrive in increasing order: a gram seen twice in one value is listed once.
        if (list[list.length - 1] !== c) list.push(c);
      }
    }
    for (const [g, list] of lists) this.postings.set(g, Int32Array.from(list));
    this.unindexed = Int32Array.from(others);
  }

  /**
   * The codes that may satisfy a positive literal condition: those listed under the rarest trigram
   * of its runs, and the unindexed ones. Null when no run has three ASCII characters to narrow by.
   */
  candidates(runs: readonly string[]): { listed: Int32Array; unindexed: Int32Array } | null {
    let best: Int32Array | null = null;
    for (const run of runs) {
      if (run.length < 3 || !ASCII.test(run)) continue;
      const text = run.toLowerCase();
      for (let i = 0; i + 3 <= text.length; i++) {
        const list = this.postings.get(gram(text, i)) ?? EMPTY;
        if (!best || list.length < best.length) best = list;
      }
    }
    return best ? { listed: best, unindexed: this.unindexed } : null;
  }

  /**
   * The condition's answer per code (1 keeps the value's rows), testing only the candidates; null
   * when the grams cannot narrow it (the caller then tests every value).
   */
  answers(values: readonly unknown[], hint: LiteralHint, test: ValueTest): Uint8Array | null {
    const found = this.candidates(hint.runs);
    if (!found) return null;
    // Values that are not candidates fail the positive condition: the negated one keeps them.
    const byCode = new Uint8Array(values.length).fill(hint.negated ? 1 : 0);
    for (const c of found.listed) byCode[c] = test(values[c]) ? 1 : 0;
    for (const c of found.unindexed) byCode[c] = test(values[c]) ? 1 : 0;
    return byCode;
  }
}

const ASCII = /^[\x00-\x7f]*$/;
const EMPTY = new Int32Array(0);

function gram(text: string, i: number): number {
  return (text.charCodeAt(i) << 14) | (text.charCodeAt(i + 1) << 7) | text.charCodeAt(i + 2);
}
