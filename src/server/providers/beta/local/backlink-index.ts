import type { FilterTree, OrderRule } from '../filter-compiler.js';
import { valueAt } from '../filter-compiler.js';
import { scaleRow, type StoredBacklink } from './backlinks-data.js';

/**
 * A target's backlinks held as columns, so a query does not touch a million row objects on every
 * request (issue 14's bench: one target with 1M backlinks, three filters and an order, p50 ≤ 30 ms).
 *
 * - A field's column is its distinct values (a dictionary) and one code per row. A filter leaf reads
 *   only its own field, so it runs once per distinct value (the compiler's own test, on a row that
 *   holds that value), and the rows' answers are a table lookup per row: the same results as running
 *   it per row, without reading the rows.
 * - An order is a permutation of the rows, sorted once per (scale, rules) by the values' ranks and
 *   then the row's position — exactly the stable sort of the filtered rows the query used to do —
 *   so a page is the first matching rows of the permutation, and no sort runs per request.
 * Columns and permutations are built on first use and kept with the rows (the rows of recent
 * targets are cached already, see row-cache.ts).
 */

type Scale = 'one_hundred' | 'one_thousand';
/** Fields whose values change with rank_scale (scaleRow). */
const SCALED = new Set(['rank', 'domain_from_rank', 'page_from_rank']);

const MAX_ANSWERS = 256;
/** Queries whose matching rows are kept: a byte per row each (16 MB at 1M rows). */
const MAX_MATCHES = 16;

/** A filter tree as text: equal keys, equal trees (and/or grouping included). */
function treeKey(tree: FilterTree): string {
  return tree.kind === 'leaf' ? tree.key : `${tree.kind}(${tree.items.map(treeKey).join(',')})`;
}

interface Column {
  /** Per row, the code of its value. */
  codes: Int32Array;
  /** Per code, the first row holding that value (a row to run a leaf's test on). */
  reps: number[];
}

/** A value as a dictionary key: primitives as themselves, lists and objects by their content. */
const keyOf = (v: unknown): unknown => (v !== null && typeof v === 'object' ? '\u0000' + JSON.stringify(v) : v);

export class BacklinkIndex {
  private readonly columns = new Map<string, Column>();
  private readonly orders = new Map<string, Uint32Array>();
  private readonly switches = new Map<string, Uint8Array>();
  /** A condition's answer per distinct value, by column and condition (a few hundred kept). */
  private readonly answerCache = new Map<string, Uint8Array>();
  /** The rows the last queries kept and how many (see matches). */
  private readonly matchCache = new Map<string, { mask: Uint8Array; total: number }>();

  constructor(readonly rows: readonly StoredBacklink[]) {}

  /** The row as a query at this scale sees it. */
  row(i: number, scale: Scale): StoredBacklink {
    return scaleRow(this.rows[i], scale);
  }

  private value(i: number, field: string, scale: Scale): unknown {
    return valueAt(SCALED.has(field) ? this.row(i, scale) : this.rows[i], field);
  }

  column(field: string, scale: Scale): Column {
    const key = SCALED.has(field) ? `${field}@${scale}` : field;
    let col = this.columns.get(key);
    if (!col) {
      const codes = new Int32Array(this.rows.length);
      const reps: number[] = [];
      const dict = new Map<unknown, number>();
      for (let i = 0; i < this.rows.length; i++) {
        const k = keyOf(this.value(i, field, scale));
        let c = dict.get(k);
        if (c === undefined) {
          c = reps.length;
          dict.set(k, c);
          reps.push(i);
        }
        codes[i] = c;
      }
      col = { codes, reps };
      this.columns.set(key, col);
    }
    return col;
  }

  /** Rows the request's switches keep (status, internal links, links to subdomains): 1 or 0 per row. */
  switchMask(status: 'all' | 'live' | 'lost', excludeInternal: boolean, includeSubdomains: boolean): Uint8Array {
    const key = `${status}/${excludeInternal}/${includeSubdomains}`;
    let mask = this.switches.get(key);
    if (!mask) {
      mask = new Uint8Array(this.rows.length);
      for (let i = 0; i < this.rows.length; i++) {
        const r = this.rows[i];
        mask[i] = (status === 'live' && r.is_lost) || (status === 'lost' && !r.is_lost) || (excludeInternal && r.internal) || (!includeSubdomains && r.to_subdomain) ? 0 : 1;
      }
      this.switches.set(key, mask);
    }
    return mask;
  }

  /** A condition's answer for each distinct value of its field, and the rows' codes. */
  private answers(leaf: Extract<FilterTree, { kind: 'leaf' }>, scale: Scale): { codes: Int32Array; byCode: Uint8Array } {
    const { codes, reps } = this.column(leaf.field, scale);
    // The answers depend only on the condition and the column's values, which never change: a
    // condition seen before (the next page, the same filter again) skips its tests. A new one
    // runs its test once per distinct value — for anchors of 1M rows, some 10^5 regex tests.
    const key = `${SCALED.has(leaf.field) ? scale : ''}|${leaf.key}`;
    let byCode = this.answerCache.get(key);
    if (!byCode) {
      byCode = new Uint8Array(reps.length);
      for (let c = 0; c < reps.length; c++) byCode[c] = leaf.test(this.row(reps[c], scale)) ? 1 : 0;
      this.answerCache.set(key, byCode);
      if (this.answerCache.size > MAX_ANSWERS) this.answerCache.delete(this.answerCache.keys().next().value as string);
    }
    return { codes, byCode };
  }

  /** The rows a filter tree keeps, 1 or 0 per row. */
  filterMask(tree: FilterTree, scale: Scale): Uint8Array {
    const n = this.rows.length;
    if (tree.kind === 'leaf') {
      const { codes, byCode } = this.answers(tree, scale);
      const mask = new Uint8Array(n);
      for (let i = 0; i < n; i++) mask[i] = byCode[codes[i]];
      return mask;
    }
    const [first, ...rest] = tree.items.map((t) => this.filterMask(t, scale));
    for (const m of rest) {
      if (tree.kind === 'and') for (let i = 0; i < n; i++) first[i] &= m[i];
      else for (let i = 0; i < n; i++) first[i] |= m[i];
    }
    return first;
  }

  /**
   * The rows `keep` (the switches) and the filters both keep, and how many. A filter that is one
   * condition or an AND of conditions (the usual case) runs as one pass over the rows, each row's
   * conditions looked up in turn; any other tree combines whole masks.
   */
  matches(tree: FilterTree | null, keep: Uint8Array, switches: string, scale: Scale): { mask: Uint8Array; total: number } {
    // Every page of a walk (offset or token) repeats its query: the rows it keeps and their count
    // are kept for the last few queries, so the next page reads only its own rows.
    const key = `${switches}|${scale}|${tree ? treeKey(tree) : ''}`;
    const hit = this.matchCache.get(key);
    if (hit) return hit;
    const found = this.computeMatches(tree, keep, scale);
    this.matchCache.set(key, found);
    if (this.matchCache.size > MAX_MATCHES) this.matchCache.delete(this.matchCache.keys().next().value as string);
    return found;
  }

  private computeMatches(tree: FilterTree | null, keep: Uint8Array, scale: Scale): { mask: Uint8Array; total: number } {
    const n = this.rows.length;
    const leaves = !tree ? [] : tree.kind === 'leaf' ? [tree] : tree.kind === 'and' && tree.items.every((t) => t.kind === 'leaf') ? (tree.items as Array<Extract<FilterTree, { kind: 'leaf' }>>) : null;
    const mask = leaves ? new Uint8Array(n) : this.filterMask(tree!, scale);
    let total = 0;
    if (leaves) {
      const tables = leaves.map((leaf) => this.answers(leaf, scale));
      const codes = tables.map((t) => t.codes);
      const byCode = tables.map((t) => t.byCode);
      const k = tables.length;
      for (let i = 0; i < n; i++) {
        let m = keep[i];
        for (let j = 0; m && j < k; j++) m = byCode[j][codes[j][i]];
        mask[i] = m;
        total += m;
      }
    } else {
      for (let i = 0; i < n; i++) total += mask[i] &= keep[i];
    }
    return { mask, total };
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
      const { codes, reps } = this.column(rule.field, scale);
      const rank = this.ranks(reps, rule, scale);
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

  /** Each distinct value's place under one rule; values the comparator finds equal share a place. */
  private ranks(reps: number[], rule: OrderRule, scale: Scale): Int32Array {
    const values = reps.map((i) => this.value(i, rule.field, scale));
    const missing = (v: unknown) => v === null || v === undefined;
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
