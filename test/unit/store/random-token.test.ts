import { afterEach, expect, it, vi } from 'vitest';

// Counts the calls into the system's random source, passing the bytes through.
const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    randomBytes: ((size: number) => {
      calls.n++;
      return real.randomBytes(size);
    }) as typeof real.randomBytes,
    randomFillSync: (<T extends NodeJS.ArrayBufferView>(buf: T) => {
      calls.n++;
      return real.randomFillSync(buf);
    }) as typeof real.randomFillSync,
  };
});

const { randomToken } = await import('../../../src/server/store/ids.js');

afterEach(() => {
  calls.n = 0;
});

it('draws random bytes in blocks: 1,000 ids of 24 characters cost a handful of calls into the system, not one each', () => {
  const tokens = Array.from({ length: 1000 }, () => randomToken(24));
  expect(calls.n).toBeLessThan(20);
  expect(new Set(tokens).size).toBe(1000);
  for (const t of tokens) expect(t).toMatch(/^[0-9a-z]{24}$/);
});

it('keeps every character equally likely (rejection sampling), with any alphabet', () => {
  const counts = new Map<string, number>();
  const n = 36 * 2000;
  for (const ch of randomToken(n)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  expect(counts.size).toBe(36);
  // 2,000 expected per character; 6 standard deviations (about ±265) either way.
  for (const c of counts.values()) expect(Math.abs(c - 2000)).toBeLessThan(270);
  expect(randomToken(50, 'ab')).toMatch(/^[ab]{50}$/);
});
