import { LRUCache } from 'lru-cache';
import type { FilterTree, OrderRule } from '../filter-compiler.js';
import { valueAt } from '../filter-compiler.js';
import { SCALED_FIELDS, scaleRank, scaleRow, type StoredBacklink } from './backlinks-data.js';
import { andInto, countBits, emptyBitset, invertBits, orInto, setBit, type Bitset } from './bitset.js';
import { ValueGrams } from './value-grams.js';

/**
 * A target's backlinks held as columns, so a query does not touch a million row objects on every
 * request (issue 14's bench: one target with 1M backlinks, three filters and an order, p50 ≤ 30 ms,
 * for a query never seen before).
 *
 * - A field's column is its distinct values (a dictionary), one code per row, and the rows of each
 *   code (postings, built on first use). A filter leaf reads only its own field, so its test runs
 *   once per distinct value (`testValue`, the compiler's own test); the rows it keeps are then the
 *   postings of the values it accepts (or the complement of those it refuses, whichever is fewer)
 *   set in a bitset. The leaves' bitsets combine by AND/OR of words and the answer's size is a
 *   popcount: no pass over the rows for a new query.
 * - An order is a permutation of the rows, sorted once per (scale, rules) by the values' ranks and
 *   then the row's position — exactly the stable sort of the filtered rows the query used to do —
 *   so a page is the first rows of the permutation whose bit is set, and no sort runs per request.
 * Columns and permutations are built on first use and kept with the rows (generated rows of recent
 * targets, or an import's rows, are kept by backlinks.ts).
 */

type Scale = 'one_hundred' | 'one_thousand';
type Leaf = Extract<FilterTree, { kind: 'leaf' }>;

const MAX_ANSWERS = 256;
/** Queries whose matching rows are kept: a bit per row each (125 KB at 1M rows). */
const MAX_MATCHES = 32;

/** A filter tree as text: equal keys, equal trees (and/or grouping included). */
function treeKey(tree: FilterTree): string {
  return tree.kind === 'leaf' ? tree.key : `${tree.kind}(${tree.items.map(treeKey).join(',')})`;
}

export interface Column {
  /** Per row, the code of its value. */
  codes: Int32Array;
  /** Per code, the value (on the column's rank scale). */
  values: unknown[];
  /** The rows of each code: rows[starts[c]..starts[c+1]) in increasing order; built on first use. */
  postings?: { starts: Uint32Array; rows: Uint32Array };
  /** For a column of few values (booleans, types): each value's rows as a bitset; built on first use. */
  valueBits?: Bitset[];
  /** The values' trigrams, for like/ilike conditions; built on first use. */
  grams?: ValueGrams;
}

/** Columns with at most this many values keep a bitset per value (125 KB each at 1M rows). */
const MAX_VALUE_BITSETS = 16;

/** A value as a dictionary key: primitives as themselves, lists and objects by their content. */
const keyOf = (v: unknown): unknown => (v !== null && typeof v === 'object' ? '\u0000' + JSON.stringify(v) : v);

/** How many indexes were made (tests check that an imported target's index outlives its requests). */
export const indexStats = { built: 0 };

export class BacklinkIndex {
  private readonly columns = new Map<string, Column>();
  private readonly orders = new Map<string, Uint32Array>();
  private readonly switches = new Map<string, Bitset>();
  /** A condition's answer per distinct value, by column and condition (a few hundred kept). */
  private readonly answerCache = new LRUCache<string, Uint8Array>({ max: MAX_ANSWERS });
  /** The rows the last queries kept and how many (see matches). */
  private readonly matchCache = new LRUCache<string, { bits: Bitset; total: number }>({ max: MAX_MATCHES });

  constructor(readonly rows: readonly StoredBacklink[]) {
    indexStats.built++;
  }

  /** The row as a query at this scale sees it. */
  row(i: number, scale: Scale): StoredBacklink {
    return scaleRow(this.rows[i], scale);
  }

  column(field: string, scale: Scale): Column {
    const scaled = SCALED_FIELDS.has(field) && scale !== 'one_thousand';
    const key = scaled ? `${field}@${scale}` : field;
    let col = this.columns.get(key);
    if (!col) {
      // The value a row shows at this scale, read without copying the row (scaleRow's values).
      const read = field.includes('.') ? (r: StoredBacklink) => valueAt(r, field) : (r: StoredBacklink) => (r as unknown as Record<string, unknown>)[field];
      const codes = new Int32Array(this.rows.length);
      const values: unknown[] = [];
      const dict = new Map<unknown, number>();
      for (let i = 0; i < this.rows.length; i++) {
        const raw = read(this.rows[i]);
        const v = scaled ? scaleRank(raw as number, scale) : raw;
        const k = keyOf(v);
        let c = dict.get(k);
        if (c === undefined) {
          c = values.length;
          dict.set(k, c);
          values.push(v);
        }
        codes[i] = c;
      }
      col = { codes, values };
      this.columns.set(key, col);
    }
    return col;
  }

  /** The rows of each code, by one counting sort of the row numbers (stable: increasing rows). */
  private postings(col: Column): NonNullable<Column['postings']> {
    if (!col.postings) {
      const { codes, values } = col;
      const starts = new Uint32Array(values.length + 1);
      for (let i = 0; i < codes.length; i++) starts[codes[i] + 1]++;
      for (let c = 0; c < values.length; c++) starts[c + 1] += starts[c];
      const fill = starts.slice(0, values.length);
      const rows = new Uint32Array(codes.length);
      for (let i = 0; i < codes.length; i++) rows[fill[codes[i]]++] = i;
      col.postings = { starts, rows };
    }
    return col.postings;
  }

  /** Rows the request's switches keep (status, internal links, links to subdomains). */
  switchBits(status: 'all' | 'live' | 'lost', excludeInternal: boolean, includeSubdomains: boolean): Bitset {
    const key = `${status}/${excludeInternal}/${includeSubdomains}`;
    let bits = this.switches.get(key);
    if (!bits) {
      bits = emptyBitset(this.rows.length);
      for (let i = 0; i < this.rows.length; i++) {
        const r = this.rows[i];
        if (!((status === 'live' && r.is_lost) || (status === 'lost' && !r.is_lost) || (excludeInternal && r.internal) || (!includeSubdomains && r.to_subdomain))) setBit(bits, i);
      }
      this.switches.set(key, bits);
    }
    return bits;
  }

  /** A condition's answer for each distinct value of its field (1 keeps the value's rows). */
  private answers(leaf: Leaf, scale: Scale): Uint8Array {
    const col = this.column(leaf.field, scale);
    const { values } = col;
    // The answers depend only on the condition and the column's values, which never change. A new
    // condition runs its test once per distinct value (for anchors of 1M generated rows, 25,000),
    // or only on the values that can match a like pattern.
    const key = `${SCALED_FIELDS.has(leaf.field) ? scale : ''}|${leaf.key}`;
    let byCode = this.answerCache.get(key);
    if (!byCode) {
      // A like/ilike pattern tests only the values holding its literal runs (value-grams.ts).
      if (leaf.literal) byCode = (col.grams ??= new ValueGrams(values)).answers(values, leaf.literal, leaf.testValue) ?? undefined;
      if (!byCode) {
        byCode = new Uint8Array(values.length);
        for (let c = 0; c < values.length; c++) byCode[c] = leaf.testValue(values[c]) ? 1 : 0;
      }
      this.answerCache.set(key, byCode);
    }
    return byCode;
  }

  /**
   * The rows a condition keeps: the postings of the values it accepts, or — when those are more
   * than half the rows — the complement of the postings of the values it refuses, so a leaf never
   * sets more than half the bits.
   */
  private leafBits(leaf: Leaf, scale: Scale): Bitset {
    const n = this.rows.length;
    const col = this.column(leaf.field, scale);
    const byCode = this.answers(leaf, scale);
    if (col.values.length <= MAX_VALUE_BITSETS) return this.fromValueBits(col, byCode);
    const { starts, rows } = this.postings(col);
    let kept = 0;
    for (let c = 0; c < byCode.length; c++) if (byCode[c]) kept += starts[c + 1] - starts[c];
    const invert = kept > n / 2;
    const wanted = invert ? 0 : 1;
    const bits = emptyBitset(n);
    for (let c = 0; c < byCode.length; c++) {
      if (byCode[c] !== wanted) continue;
      for (let j = starts[c], end = starts[c + 1]; j < end; j++) {
        const i = rows[j];
        bits[i >>> 5] |= 1 << (i & 31);
      }
    }
    if (invert) invertBits(bits, n);
    return bits;
  }

  /** A condition on a column of few values: the union of the accepted values' bitsets. */
  private fromValueBits(col: Column, byCode: Uint8Array): Bitset {
    if (!col.valueBits) {
      const bits = col.values.map(() => emptyBitset(this.rows.length));
      for (let i = 0; i < col.codes.length; i++) setBit(bits[col.codes[i]], i);
      col.valueBits = bits;
    }
    const out = emptyBitset(this.rows.length);
    for (let c = 0; c < byCode.length; c++) if (byCode[c]) orInto(out, col.valueBits[c]);
    return out;
  }

  /** The rows a filter tree keeps, as a new bitset. */
  filterBits(tree: FilterTree, scale: Scale): Bitset {
    if (tree.kind === 'leaf') return this.leafBits(tree, scale);
    const [first, ...rest] = tree.items.map((t) => this.filterBits(t, scale));
    for (const bits of rest) (tree.kind === 'and' ? andInto : orInto)(first, bits);
    return first;
  }

  /** The rows `keep` (the switches) and the filters both keep, and how many. */
  matches(tree: FilterTree | null, keep: Bitset, switches: string, scale: Scale): { bits: Bitset; total: number } {
    // Every page of a walk (offset or token) repeats its query: the rows it keeps and their count
    // are kept for the last few queries, so the next page reads only its own rows.
    const key = `${switches}|${scale}|${tree ? treeKey(tree) : ''}`;
    const hit = this.matchCache.get(key);
    if (hit) return hit;
    let bits: Bitset;
    if (tree) {
      bits = this.filterBits(tree, scale);
      andInto(bits, keep);
    } else {
      bits = keep;
    }
    const found = { bits, total: countBits(bits) };
    this.matchCache.set(key, found);
    return found;
  }

  /**
   * Row numbers in the order of `rules`, ties by position: the comparator's order (missing values
   * last in either direction) as one stable counting sort per rule, last rule first.
   */
  order(rules: OrderRule[], scale: Scale): Uint32Array {
    const key = `${scale}:${rules.map((r) => `${r.field},${r.desc ? 'desc' : 'asc'}`).join(';')}`;
    let perm = this.orders.get(key);
    if (perm) return perm;
    const n = this.rows.length;
    perm = new Uint32Array(n);
    for (let i = 0; i < n; i++) perm[i] = i;
    for (const rule of [...rules].reverse()) {
      const { codes, values } = this.column(rule.field, scale);
      const rank = ranks(values, rule);
      let buckets = 0;
      for (const r of rank) buckets = Math.max(buckets, r + 1);
      const starts = new Uint32Array(buckets + 1);
      for (let i = 0; i < n; i++) starts[rank[codes[i]] + 1]++;
      for (let b = 0; b < buckets; b++) starts[b + 1] += starts[b];
      const next = new Uint32Array(n);
      for (let j = 0; j < n; j++) {
        const i = perm[j];
        next[starts[rank[codes[i]]]++] = i;
      }
      perm = next;
    }
    this.orders.set(key, perm);
    return perm;
  }
}

/** Each distinct value's place under one rule; values the comparator finds equal share a place. */
function ranks(values: unknown[], rule: OrderRule): Int32Array {
  const missing = (v: unknown) => v === null || v === undefined;
  // Distinct values of one type (the usual column) sort by a comparator with no type checks: twice
  // as fast at a million distinct dates. Distinct values are never equal (NaN aside, kept out), so
  // each has its own place; missing values share the last, in either direction.
  const present = values.map((_, c) => c).filter((c) => !missing(values[c]));
  const numbers = present.every((c) => typeof values[c] === 'number' && !Number.isNaN(values[c]));
  const strings = !numbers && present.every((c) => typeof values[c] === 'string');
  if (numbers || strings) {
    const vs = values as never[];
    present.sort(numbers ? (a, b) => vs[a] - vs[b] : (a, b) => (vs[a] < vs[b] ? -1 : vs[a] > vs[b] ? 1 : 0));
    if (rule.desc) present.reverse();
    const rank = new Int32Array(values.length).fill(present.length);
    present.forEach((c, j) => (rank[c] = j));
    return rank;
  }
  const cmp = (x: unknown, y: unknown): number => {
    if (x === y) return 0;
    if (missing(x)) return missing(y) ? 0 : 1;
    if (missing(y)) return -1;
    const c = (x as never) < (y as never) ? -1 : (x as never) > (y as never) ? 1 : 0;
    return rule.desc ? -c : c;
  };
  const sorted = values.map((_, c) => c).sort((a, b) => cmp(values[a], values[b]));
  const rank = new Int32Array(values.length);
  let place = 0;
  sorted.forEach((c, j) => {
    if (j > 0 && cmp(values[sorted[j - 1]], values[c]) !== 0) place++;
    rank[c] = place;
  });
  return rank;
}

const indexes = new WeakMap<readonly StoredBacklink[], BacklinkIndex>();

/** The index of a rows array, built on first use and kept as long as the array lives. */
export function backlinkIndex(rows: readonly StoredBacklink[]): BacklinkIndex {
  let index = indexes.get(rows);
  if (!index) {
    index = new BacklinkIndex(rows);
    indexes.set(rows, index);
  }
  return index;
}
