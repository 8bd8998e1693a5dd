import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { queueDepth } from '../jobs/jobs.repo.js';
import { poolStatsOf } from '../store/postgres.js';
import { cpuPoolStats } from '../engines/workers/index.js';
import type { Readiness } from '../readiness.js';
import type { ServerMetrics } from './server-metrics.js';

/** A scrape reads the queue from the database at most this often; scrapes in between reuse it. */
const QUEUE_CACHE_MS = 5_000;
/** A queue read slower than this is not waited for: the scrape shows the last one it had. */
const QUEUE_READ_BOUND_MS = 1_000;

export interface ScrapeSources {
  db: Kysely<Database>;
  readiness: Readiness;
  now: () => Date;
  /** Jobs this instance runs now, by kind. */
  jobsRunning: () => Map<string, number>;
  /** Open conversation-stream readers, answers being written, and open `logs tail` readers. */
  streams: () => { readers: number; writers: number; tails: number };
}

/** Gauges worked out when /metrics is read: the queue (from the database), pools, streams, readiness. */
export function installScrapeGauges(metrics: ServerMetrics, src: ScrapeSources): void {
  const queue = cachedQueue(src.db, src.now);
  metrics.scrapeGauge(
    'facet_jobs_queued',
    'Jobs waiting in the queue (all instances), by kind',
    ['kind'],
    async (g) => {
      g.reset();
      for (const r of (await queue()).rows) g.set({ kind: r.kind }, r.queued);
    },
  );
  metrics.scrapeGauge(
    'facet_jobs_oldest_queued_age_seconds',
    'How long the longest-waiting runnable job (all instances) has been able to run, by kind',
    ['kind'],
    async (g) => {
      g.reset();
      const { rows, at } = await queue();
      for (const r of rows) g.set({ kind: r.kind }, r.oldest ? Math.max(0, (at - Date.parse(r.oldest)) / 1000) : 0);
    },
  );
  metrics.scrapeGauge('facet_jobs_running', 'Jobs this instance runs now, by kind', ['kind'], (g) => {
    g.reset();
    for (const [kind, n] of src.jobsRunning()) g.set({ kind }, n);
  });
  metrics.scrapeGauge(
    'facet_jobs_queue_read_errors',
    '1 when the last read of the queue failed or took too long (the queue gauges then show the read before)',
    [],
    async (g) => g.set((await queue()).failed ? 1 : 0),
  );

  metrics.scrapeGauge('facet_cpu_pool_workers', 'Workers of the CPU pool, by lane', ['lane'], (g) => {
    for (const l of cpuPoolStats()) g.set({ lane: l.lane }, l.capacity);
  });
  metrics.scrapeGauge('facet_cpu_pool_busy_workers', 'Workers running a job now, by lane', ['lane'], (g) => {
    for (const l of cpuPoolStats()) g.set({ lane: l.lane }, l.running);
  });
  metrics.scrapeGauge('facet_cpu_pool_utilisation_ratio', 'Busy workers over workers, by lane', ['lane'], (g) => {
    for (const l of cpuPoolStats()) g.set({ lane: l.lane }, l.capacity ? l.running / l.capacity : 0);
  });
  metrics.scrapeGauge('facet_cpu_pool_queue_length', 'CPU jobs waiting for a worker, by lane', ['lane'], (g) => {
    for (const l of cpuPoolStats()) g.set({ lane: l.lane }, l.queued);
  });
  metrics.scrapeGauge(
    'facet_cpu_pool_queue_wait_seconds',
    "How long a lane's last jobs (up to 512) waited for a worker, by lane and quantile (0.5, 0.99, 1)",
    ['lane', 'quantile'],
    (g) => {
      for (const l of cpuPoolStats()) {
        g.set({ lane: l.lane, quantile: '0.5' }, l.wait.p50_ms / 1000);
        g.set({ lane: l.lane, quantile: '0.99' }, l.wait.p99_ms / 1000);
        g.set({ lane: l.lane, quantile: '1' }, l.wait.max_ms / 1000);
      }
    },
  );
  // A counter's value kept by the pool: exposed as one, named as one.
  metrics.scrapeCounter(
    'facet_cpu_pool_limit_kills_total',
    'CPU jobs stopped by a limit (time or memory) and their worker replaced, by lane',
    ['lane', 'limit'],
    () =>
      cpuPoolStats().flatMap((l) => [
        { labels: { lane: l.lane, limit: 'time' }, value: l.kills.time },
        { labels: { lane: l.lane, limit: 'memory' }, value: l.kills.memory },
      ]),
  );

  // PostgreSQL only: SQLite has no pool.
  if (poolStatsOf(src.db)) {
    metrics.scrapeGauge(
      'facet_db_pool_connections',
      'Database connections of this instance, by state (in_use, idle), and the pool size (max)',
      ['state'],
      (g) => {
        const p = poolStatsOf(src.db)!;
        g.set({ state: 'in_use' }, p.total - p.idle);
        g.set({ state: 'idle' }, p.idle);
        g.set({ state: 'max' }, p.max);
      },
    );
    metrics.scrapeGauge('facet_db_pool_waiting_requests', 'Queries waiting for a free connection', [], (g) =>
      g.set(poolStatsOf(src.db)!.waiting),
    );
    metrics.scrapeCounter('facet_db_pool_errors_total', 'Database connections lost with an error', [], () => [
      { labels: {}, value: poolStatsOf(src.db)!.errors },
    ]);
  }

  metrics.scrapeGauge(
    'facet_event_streams_open',
    'Open event streams: conversation-stream readers, answers being written into streams, live request-log tails',
    ['kind'],
    (g) => {
      const s = src.streams();
      g.set({ kind: 'conversation_reader' }, s.readers);
      g.set({ kind: 'conversation_writer' }, s.writers);
      g.set({ kind: 'log_tail' }, s.tails);
    },
  );

  metrics.scrapeGauge('facet_ready', '1 when /readyz answers 200, 0 otherwise', [], async (g) => {
    g.set((await src.readiness.report()).ready ? 1 : 0);
  });
  metrics.scrapeGauge(
    'facet_readiness_check_ok',
    'Each check of /readyz: 1 ok, 0 failing or not checked (start: started and not draining; database; files: the object store)',
    ['check'],
    async (g) => {
      const { checks } = await src.readiness.report();
      for (const [check, v] of Object.entries(checks)) g.set({ check }, v === 'ok' ? 1 : 0);
    },
  );
  metrics.scrapeGauge('facet_draining', '1 from SIGTERM until the instance exits', [], (g) =>
    g.set(src.readiness.isDraining ? 1 : 0),
  );
}

/** The queue read once per QUEUE_CACHE_MS, bounded in time; a failed or slow read keeps the last rows. */
function cachedQueue(db: Kysely<Database>, now: () => Date) {
  type Read = { rows: Awaited<ReturnType<typeof queueDepth>>; at: number; failed: boolean };
  let last: Read = { rows: [], at: now().getTime(), failed: false };
  let pending: Promise<Read> | undefined;
  let readAt = 0;
  return (): Promise<Read> => {
    if (Date.now() - readAt < QUEUE_CACHE_MS) return pending ?? Promise.resolve(last);
    readAt = Date.now();
    const read = queueDepth(db).then(
      (rows): Read => (last = { rows, at: now().getTime(), failed: false }),
      (): Read => (last = { ...last, failed: true }),
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Read>((resolve) => {
      timer = setTimeout(() => resolve({ ...last, failed: true }), QUEUE_READ_BOUND_MS);
    });
    pending = Promise.race([read, late]).finally(() => clearTimeout(timer));
    void pending.then(() => (pending = undefined));
    return pending;
  };
}
