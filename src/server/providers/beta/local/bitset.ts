/**
 * Sets of row numbers as bits in 32-bit words: at 1M rows a set is 125 KB, combining two is 31,250
 * word operations and counting one is as many popcounts — far cheaper than a pass over the rows.
 */
export type Bitset = Uint32Array;

/** An empty set for rows 0..n-1. */
export function emptyBitset(n: number): Bitset {
  return new Uint32Array((n + 31) >>> 5);
}

export function hasBit(set: Bitset, i: number): boolean {
  return (set[i >>> 5] & (1 << (i & 31))) !== 0;
}

export function setBit(set: Bitset, i: number): void {
  set[i >>> 5] |= 1 << (i & 31);
}

/** `into` becomes `into` ∩ `other`. */
export function andInto(into: Bitset, other: Bitset): void {
  for (let w = 0; w < into.length; w++) into[w] &= other[w];
}

/** `into` becomes `into` ∪ `other`. */
export function orInto(into: Bitset, other: Bitset): void {
  for (let w = 0; w < into.length; w++) into[w] |= other[w];
}

/** The complement within rows 0..n-1 (bits past n stay clear, so counts stay right). */
export function invertBits(set: Bitset, n: number): void {
  for (let w = 0; w < set.length; w++) set[w] = ~set[w];
  const tail = n & 31;
  if (tail) set[set.length - 1] &= (1 << tail) - 1;
}

/** How many rows the set holds. */
export function countBits(set: Bitset): number {
  let total = 0;
  for (let w = 0; w < set.length; w++) {
    let x = set[w];
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    total += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return total;
}

/** Calls `visit` with each row of the set, in increasing order. */
export function forEachBit(set: Bitset, visit: (i: number) => void): void {
  for (let w = 0; w < set.length; w++) {
    let x = set[w];
    while (x !== 0) {
      const low = x & -x;
      visit((w << 5) + 31 - Math.clz32(low));
      x ^= low;
    }
  }
}
