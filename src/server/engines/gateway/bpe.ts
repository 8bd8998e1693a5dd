import type { TiktokenBPE } from 'js-tiktoken/lite';
import { LRUCache } from 'lru-cache';

/** Ranks read between two yields to the event loop (a few milliseconds' work). */
const RANKS_PER_BATCH = 5_000;

/**
 * Byte-pair encoding over tiktoken rank files (the data js-tiktoken ships), in O(n log n) per piece.
 *
 * js-tiktoken's own merge loop rescans every pair of a piece after each merge, which is quadratic in
 * the length of a pre-tokenized piece; a run without spaces (CJK text, emoji, `aaaa…`) is one piece,
 * so 2,000 emoji took seconds and 20,000 characters more than a minute. This encoder makes the same
 * merges in the same order — the pair of lowest rank first, the leftmost one on a tie — but keeps the
 * candidate pairs in a binary heap, so each merge costs O(log n): the tokens are identical to
 * js-tiktoken's, only the time differs.
 *
 * Special tokens (`<|endoftext|>`) are ordinary text here, as in tiktoken's `encode_ordinary`: a
 * prompt that quotes one is counted like the characters it contains (js-tiktoken's `encode` throws).
 */
export class BytePairEncoder {
  /** Token bytes as a latin1 string (one char per byte) -> rank. */
  private readonly ranks = new Map<string, number>();
  /**
   * Pieces that are not one token -> their tokens. Texts repeat pieces (markup, code, numbers): a
   * repeated one is looked up, not merged again. Bounded: the least recently used go first.
   */
  private readonly merged = new LRUCache<string, number[]>({ max: MAX_CACHED_PIECES });
  private readonly bytesOf: Buffer[] = [];
  private readonly pattern: RegExp;
  /** No token is longer than this, so longer pairs need no lookup. */
  private longest = 1;

  private constructor(patStr: string) {
    this.pattern = new RegExp(patStr, 'gu');
  }

  /**
   * Reads the ranks a batch at a time, yielding to the event loop between batches: all 200,000 at
   * once held a thread's loop for a quarter of a second, so the first request that counted tokens
   * stalled every other request of the server.
   */
  static async load(bpe: TiktokenBPE): Promise<BytePairEncoder> {
    const enc = new BytePairEncoder(bpe.pat_str);
    for (const line of bpe.bpe_ranks.split('\n')) {
      if (!line) continue;
      // "<prefix> <first rank> <base64 token> <base64 token> …", ranks consecutive from the first.
      const fields = line.split(' ');
      const first = Number.parseInt(fields[1], 10);
      for (let from = 2; from < fields.length; from += RANKS_PER_BATCH) {
        enc.addRanks(fields, first, from, Math.min(fields.length, from + RANKS_PER_BATCH));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return enc;
  }

  private addRanks(fields: string[], first: number, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const bytes = Buffer.from(fields[i], 'base64');
      this.ranks.set(bytes.toString('latin1'), first + i - 2);
      this.bytesOf[first + i - 2] = bytes;
      if (bytes.length > this.longest) this.longest = bytes.length;
    }
  }

  get maxTokenBytes(): number {
    return this.longest;
  }

  /**
   * The text's tokens (special-token strings counted as plain text). With a limit, encoding stops
   * after the piece that reaches it: the result starts with the same tokens as the full encoding.
   */
  encode(text: string, limit = Infinity): number[] {
    const out: number[] = [];
    for (const match of text.matchAll(this.pattern)) {
      const piece = match[0];
      // UTF-8 of ASCII is the same bytes: only a piece with other characters needs converting.
      this.encodePiece(ASCII.test(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1'), out);
      if (out.length >= limit) break;
    }
    return out;
  }

  count(text: string): number {
    return text === '' ? 0 : this.encode(text).length;
  }

  decode(tokens: number[]): string {
    return Buffer.concat(tokens.map((t) => this.bytesOf[t] ?? Buffer.alloc(0))).toString('utf8');
  }

  private encodePiece(piece: string, out: number[]): void {
    const whole = this.ranks.get(piece);
    if (whole !== undefined) {
      out.push(whole);
      return;
    }
    const known = this.merged.get(piece);
    if (known !== undefined) {
      for (const t of known) out.push(t);
      return;
    }
    const start = out.length;
    this.merge(piece, out);
    if (piece.length <= MAX_CACHED_PIECE) {
      this.merged.set(piece, out.slice(start));
    }
  }

  private merge(piece: string, out: number[]): void {
    const n = piece.length;
    // Parts are a linked list of byte offsets: next[i] is where the part starting at i ends.
    const next = new Int32Array(n + 1);
    const prev = new Int32Array(n + 1);
    const alive = new Uint8Array(n + 1);
    for (let i = 0; i <= n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      alive[i] = 1;
    }
    const rankAt = (i: number): number => {
      const end = next[i] < n ? next[next[i]] : n + 1;
      if (end > n || end - i > this.maxTokenBytes) return -1;
      return this.ranks.get(piece.slice(i, end)) ?? -1;
    };
    const heap = new PairHeap();
    for (let i = 0; i < n - 1; i++) {
      const r = rankAt(i);
      if (r >= 0) heap.push(r, i);
    }
    while (heap.size > 0) {
      const { rank, start } = heap.pop();
      // Stale entry: a neighbour merged since it was pushed. Ranks are unique per byte string, so an
      // equal rank at the same start means the very same pair.
      if (!alive[start] || rankAt(start) !== rank) continue;
      const gone = next[start];
      alive[gone] = 0;
      next[start] = next[gone];
      if (next[gone] <= n) prev[next[gone]] = start;
      const own = rankAt(start);
      if (own >= 0) heap.push(own, start);
      if (start > 0) {
        const before = prev[start];
        const r = rankAt(before);
        if (r >= 0) heap.push(r, before);
      }
    }
    for (let i = 0; i < n; i = next[i]) {
      const r = this.ranks.get(piece.slice(i, next[i]));
      if (r !== undefined) out.push(r);
    }
  }
}

const ASCII = /^[\x00-\x7f]*$/;
const MAX_CACHED_PIECE = 64;
const MAX_CACHED_PIECES = 16_384;

/** Min-heap of (rank, start) pairs packed in one number: lowest rank first, then leftmost. */
class PairHeap {
  private readonly items: number[] = [];
  private static readonly SPAN = 2 ** 32;

  get size(): number {
    return this.items.length;
  }

  push(rank: number, start: number): void {
    const a = this.items;
    let i = a.push(rank * PairHeap.SPAN + start) - 1;
    const v = a[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= v) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = v;
  }

  pop(): { rank: number; start: number } {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      let i = 0;
      const n = a.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const c = l + 1 < n && a[l + 1] < a[l] ? l + 1 : l;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return { rank: Math.floor(top / PairHeap.SPAN), start: top % PairHeap.SPAN };
  }
}
