import { expect } from 'vitest';
import type { Platform } from './platform.js';

/**
 * Polls the platform's /healthz every `everyMs` until `work` settles: the work's result, and each
 * poll's round trip in ms (what a load balancer's probe would have seen meanwhile).
 */
export async function pollWhile<T>(
  p: Platform,
  work: Promise<T>,
  everyMs = 100,
): Promise<{ result: T; polls: number[] }> {
  const polls: number[] = [];
  let done = false;
  const finished = work.finally(() => (done = true));
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const r = await p.fetch('/healthz', { signal: AbortSignal.timeout(30_000) });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      polls.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  const result = await finished;
  await poller;
  return { result, polls };
}
