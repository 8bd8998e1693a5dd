import { createHash } from 'node:crypto';
import { mulberry32 } from '../../engines/seeded-random.js';

/**
 * Deterministic randomness for the local data providers: every value derives from a hash of the
 * subject (a target, a keyword, a ticker), so the same subject always has the same data, on every
 * call, server and machine; nothing is random per call.
 */

export function seedOf(...parts: Array<string | number>): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

/** The generator of a subject's seed (engines/seeded-random.ts). */
export const rng = (seed: number): (() => number) => mulberry32(seed);

/** The generator of row i of a subject: rows can be made one by one, in any order. */
export function rowRng(seed: number, i: number): () => number {
  return rng((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
}

export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];
export const int = (r: () => number, min: number, max: number): number => min + Math.floor(r() * (max - min + 1));

/** The day the local data describes: fixed, so dates never move between runs. */
export const DATA_DATE = Date.UTC(2026, 9, 31, 12, 0, 0);

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The provider's date format: yyyy-mm-dd hh:mm:ss +00:00 (built by hand: it runs for every row). */
export function providerDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +00:00`;
}

export const WORDS = [
  'alpha',
  'atlas',
  'beacon',
  'birch',
  'blue',
  'bright',
  'cedar',
  'cloud',
  'coast',
  'copper',
  'crest',
  'delta',
  'ember',
  'field',
  'fjord',
  'forge',
  'garden',
  'harbor',
  'hollow',
  'iron',
  'jade',
  'juniper',
  'lantern',
  'maple',
  'meadow',
  'nova',
  'oak',
  'orbit',
  'pine',
  'pixel',
  'prairie',
  'quartz',
  'river',
  'rocket',
  'sage',
  'signal',
  'silver',
  'spark',
  'stone',
  'summit',
  'tide',
  'timber',
  'vale',
  'vector',
  'willow',
];
export const TLDS = [
  'com',
  'com',
  'com',
  'org',
  'net',
  'io',
  'de',
  'co.uk',
  'fr',
  'nl',
  'es',
  'it',
  'ca',
  'com.au',
  'dev',
];
