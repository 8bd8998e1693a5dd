/** The last value a background read gave, and whether the latest read failed or ran past its bound. */
export interface Sampled<T> {
  value: T;
  failed: boolean;
}

export interface Sampler<T> {
  /** The last value read (the initial one until a read has ended): never waits. */
  get(): Sampled<T>;
  stop(): void;
}

/**
 * Reads `read` now and then every `everyMs` in the background, so a scrape only copies the last
 * value and never waits on the database or walks a big structure while a scraper's timeout runs.
 * A read still running when the next is due is not doubled; one slower than `boundMs` marks the
 * sample failed (its value stays the last good one) until a read ends well.
 */
export function sampleInBackground<T>(
  read: () => T | Promise<T>,
  initial: T,
  options: { everyMs: number; boundMs?: number },
): Sampler<T> {
  let last: Sampled<T> = { value: initial, failed: false };
  let pending = false;
  let stopped = false;
  const once = () => {
    if (pending || stopped) return;
    pending = true;
    let late: NodeJS.Timeout | undefined;
    if (options.boundMs !== undefined) {
      late = setTimeout(() => (last = { ...last, failed: true }), options.boundMs);
      late.unref();
    }
    Promise.resolve()
      .then(read)
      .then(
        (value) => (last = { value, failed: false }),
        () => (last = { ...last, failed: true }),
      )
      .finally(() => {
        clearTimeout(late);
        pending = false;
      });
  };
  once();
  const timer = setInterval(once, options.everyMs);
  timer.unref();
  return {
    get: () => last,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
