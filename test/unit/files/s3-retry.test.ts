import { expect, it } from 'vitest';
import { isTransientStoreError, withStoreRetries } from '../../../src/server/files/s3/s3-retry.js';

const httpError = (status: number, name = 'Error') =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

it('tells an outage (no answer, 5xx, throttling) from a refusal (4xx)', () => {
  expect(isTransientStoreError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
  expect(isTransientStoreError(httpError(503, 'ServiceUnavailable'))).toBe(true);
  expect(isTransientStoreError(httpError(500))).toBe(true);
  expect(isTransientStoreError(httpError(429))).toBe(true);
  expect(isTransientStoreError(httpError(400, 'SlowDown'))).toBe(true);
  expect(isTransientStoreError(httpError(403, 'AccessDenied'))).toBe(false);
  expect(isTransientStoreError(httpError(404, 'NoSuchBucket'))).toBe(false);
  expect(isTransientStoreError(Object.assign(new Error('no credentials'), { name: 'CredentialsProviderError' }))).toBe(
    false,
  );
});

it('backs off exponentially with jitter within its window, then throws the last failure; a refusal at once', async () => {
  const pauses: number[] = [];
  const seen = { request: 0, retry: 0, error: 0 };
  const observer = { request: () => seen.request++, retry: () => seen.retry++, error: () => seen.error++ };
  let calls = 0;
  const down = () => {
    calls++;
    return Promise.reject(httpError(503, 'ServiceUnavailable'));
  };
  // A fake clock: each pause moves time on, so the window is reached without waiting.
  const realNow = Date.now;
  let now = realNow();
  Date.now = () => now;
  try {
    const err = await withStoreRetries('PUT', down, 20_000, observer, (ms) => {
      pauses.push(ms);
      now += ms;
      return Promise.resolve();
    }).catch((e: Error) => e);
    expect((err as Error).name).toBe('ServiceUnavailable');
  } finally {
    Date.now = realNow;
  }
  expect(calls).toBe(pauses.length + 1);
  expect(pauses.length).toBeGreaterThanOrEqual(4);
  expect(pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20_000);
  // Each pause within a quarter and a whole of its step: 250 ms doubling, at most 8 s.
  pauses.forEach((ms, i) => {
    const step = Math.min(8_000, 250 * 2 ** i);
    expect(ms).toBeGreaterThanOrEqual(step * 0.25 - 1);
    expect(ms).toBeLessThanOrEqual(step);
  });
  expect(seen).toEqual({ request: calls, retry: pauses.length, error: 1 });

  let refusals = 0;
  const refused = await withStoreRetries(
    'GET',
    () => {
      refusals++;
      return Promise.reject(httpError(403, 'AccessDenied'));
    },
    20_000,
  ).catch((e: Error) => e);
  expect((refused as Error).name).toBe('AccessDenied');
  expect(refusals).toBe(1);
});
