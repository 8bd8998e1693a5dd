import type { ServerMetrics } from './server-metrics.js';
import { sampleInBackground } from './sampler.js';

/** How often the process's handles, requests and resources are counted. */
const PROCESS_SAMPLE_MS = 5_000;

type Counts = Map<string, number>;

const byName = (items: readonly unknown[]): Counts => {
  const counts: Counts = new Map();
  for (const item of items) {
    const name = typeof item === 'string' ? item : ((item as object | null)?.constructor?.name ?? 'unknown');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
};

/** Node's private listings, as prom-client's default collectors read them; absent in some versions. */
const internals = process as unknown as { _getActiveHandles?: () => unknown[]; _getActiveRequests?: () => unknown[] };

/**
 * `nodejs_active_handles{type}`, `nodejs_active_requests{type}` and `nodejs_active_resources{type}`
 * as prom-client names them, counted in the background: listing every socket of a loaded server at
 * scrape time is what made scrapes slow. The sums (prom-client's `*_total` gauges) are left out:
 * `sum(nodejs_active_handles)` gives them, and promtool refuses a gauge named like a counter.
 */
export function installProcessGauges(metrics: ServerMetrics): () => void {
  const sample = sampleInBackground(
    () => ({
      handles: byName(internals._getActiveHandles?.() ?? []),
      requests: byName(internals._getActiveRequests?.() ?? []),
      resources: byName(process.getActiveResourcesInfo()),
    }),
    { handles: new Map<string, number>(), requests: new Map<string, number>(), resources: new Map<string, number>() },
    { everyMs: PROCESS_SAMPLE_MS },
  );
  const gauges = [
    ['handles', 'Number of active libuv handles grouped by handle type (sampled every 5 s)'],
    ['requests', 'Number of active libuv requests grouped by request type (sampled every 5 s)'],
    ['resources', 'Number of active resources keeping the event loop alive, grouped by type (sampled every 5 s)'],
  ] as const;
  for (const [what, help] of gauges)
    metrics.scrapeGauge(`nodejs_active_${what}`, help, ['type'], (g) => {
      g.reset();
      for (const [type, n] of sample.get().value[what]) g.set({ type }, n);
    });
  return () => sample.stop();
}
