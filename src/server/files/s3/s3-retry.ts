/** What a store reports of its requests, for /metrics (by operation: GET, PUT, HEAD, LIST, DELETE). */
export interface StoreObserver {
  request(operation: string): void;
  retry(operation: string): void;
  error(operation: string): void;
}

/** First pause after a failed attempt; it doubles each time, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;

/**
 * Whether a failure may pass if tried again: no answer at all (connection refused or reset, a
 * timeout, a name that does not resolve yet), a 5xx, or throttling. A 4xx (access denied, no such
 * bucket) will not change by waiting. Credentials that cannot be found are not an outage either.
 */
export function isTransientStoreError(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'CredentialsProviderError' || e.name === 'AbortError') return false;
  const status = e.$metadata?.httpStatusCode;
  if (status === undefined) return true;
  return status >= 500 || status === 429 || e.name === 'SlowDown' || e.name === 'RequestTimeout';
}

/**
 * Runs one storage operation, and again after a transient failure, with exponential backoff and
 * jitter (a quarter to a full step, so instances that met the same outage do not come back in step),
 * until `windowMs` has gone by since the first attempt: a store that is away for less than the window
 * (a restart, a failover) is waited for. The last failure is thrown.
 */
export async function withStoreRetries<T>(
  operation: string,
  fn: () => Promise<T>,
  windowMs: number,
  observer?: StoreObserver,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    observer?.request(operation);
    try {
      return await fn();
    } catch (err) {
      const step = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
      const delay = Math.round(step * (0.25 + Math.random() * 0.75));
      if (!isTransientStoreError(err) || Date.now() - started + delay > windowMs) {
        observer?.error(operation);
        throw err;
      }
      observer?.retry(operation);
      await sleep(delay);
    }
  }
}
