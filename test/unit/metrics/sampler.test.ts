import { afterEach, expect, it, vi } from 'vitest';
import { sampleInBackground, type Sampler } from '../../../src/server/metrics/sampler.js';

/**
 * Issue 47: what a gauge costs to work out (a database query) is read in the background; a scrape
 * copies the last value and never waits, even when the read hangs (a database outage).
 */
let sampler: Sampler<number> | undefined;
afterEach(() => {
  sampler?.stop();
  vi.useRealTimers();
});

it('gives the last value at once, marks a read past its bound failed, and never runs two reads at a time', async () => {
  vi.useFakeTimers();
  let reads = 0;
  let release: ((n: number) => void) | undefined;
  sampler = sampleInBackground(
    () => {
      reads++;
      return new Promise<number>((resolve) => (release = resolve));
    },
    -1,
    { everyMs: 1000, boundMs: 300 },
  );
  await vi.advanceTimersByTimeAsync(0);
  expect(reads).toBe(1);
  expect(sampler.get()).toEqual({ value: -1, failed: false });
  release!(7);
  await vi.advanceTimersByTimeAsync(0);
  expect(sampler.get()).toEqual({ value: 7, failed: false });

  // The next read hangs: the value stays, marked failed once the bound is over, and no second read starts.
  await vi.advanceTimersByTimeAsync(1000);
  expect(reads).toBe(2);
  await vi.advanceTimersByTimeAsync(300);
  expect(sampler.get()).toEqual({ value: 7, failed: true });
  await vi.advanceTimersByTimeAsync(5000);
  expect(reads).toBe(2);
  release!(9);
  await vi.advanceTimersByTimeAsync(0);
  expect(sampler.get()).toEqual({ value: 9, failed: false });
  await vi.advanceTimersByTimeAsync(1000);
  expect(reads).toBe(3);
});

it('keeps the last value when a read fails, and stops reading once stopped', async () => {
  vi.useFakeTimers();
  let n = 0;
  sampler = sampleInBackground(
    () => {
      n++;
      if (n === 2) throw new Error('database unreachable');
      return n;
    },
    0,
    { everyMs: 100 },
  );
  await vi.advanceTimersByTimeAsync(0);
  expect(sampler.get()).toEqual({ value: 1, failed: false });
  await vi.advanceTimersByTimeAsync(100);
  expect(sampler.get()).toEqual({ value: 1, failed: true });
  await vi.advanceTimersByTimeAsync(100);
  expect(sampler.get()).toEqual({ value: 3, failed: false });
  sampler.stop();
  await vi.advanceTimersByTimeAsync(1000);
  expect(n).toBe(3);
});
