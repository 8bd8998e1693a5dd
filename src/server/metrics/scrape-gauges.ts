import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { queueDepth } from '../jobs/jobs.repo.js';
import { poolStatsOf } from '../store/postgres.js';
import { cpuPoolStats, onCpuWait } from '../engines/workers/index.js';
import type { Readiness, ReadinessReport } from '../readiness.js';
import type { ServerMetrics } from './server-metrics.js';
import { sampleInBackground } from './sampler.js';

/** The queue is read from the database this often, in the background; scrapes copy the last read. */
const QUEUE_SAMPLE_MS = 5_000;
/** A queue read slower than this marks the queue gauges stale (facet_jobs_queue_read_errors). */
const QUEUE_READ_BOUND_MS = 1_000;
/** Readiness (a database query, the object store asked) is sampled this often. */
const READINESS_SAMPLE_MS = 2_000;

export interface ScrapeSources {
  db: Kysely<Database>;
  readiness: Readiness;
  now: () => Date;
  /** Jobs this instance runs now, by kind. */
  jobsRunning: () => Map<string, number>;
  /** Open conversation-stream readers, answers being written, and open `logs tail` readers. */
  streams: () => { readers: number; writers: number; tails: number };
}

/**
 * Gauges read when /metrics is: what costs a query (the queue, readiness) is sampled in the
 * background and only copied at scrape time, so a scrape under load never waits on the database;
 * the rest (pools, streams, running jobs) are counters in memory, read as they are. Returns what
 * stops the background reads.
 */
export function installScrapeGauges(metrics: ServerMetrics, src: ScrapeSources): () => void {
  const queue = sampleInBackground(
    async () => ({ rows: await queueDepth(src.db), at: src.now().getTime() }),
    { rows: [] as Awaited<ReturnType<typeof queueDepth>>, at: src.now().getTime() },
    { everyMs: QUEUE_SAMPLE_MS, boundMs: QUEUE_READ_BOUND_MS },
  );
  const notYet: ReadinessReport = {
    ready: false,
    checks: { start: 'not checked', database: 'not checked', files: 'not checked' },
  };
  const readiness = sampleInBackground(() => src.readiness.report(), notYet, { everyMs: READINESS_SAMPLE_MS });
  /** Draining shows at once (no query): the sample may be up to READINESS_SAMPLE_MS old. */
  const ready = () => !src.readiness.isDraining && readiness.get().value.ready;

  metrics.scrapeGauge(
    'facet_jobs_queued',
    'Jobs waiting in the queue (all instances), by kind; read from the database every 5 s',
    ['kind'],
    (g) => {
      g.reset();
      for (const r of queue.get().value.rows) g.set({ kind: r.kind }, r.queued);
    },
  );
  metrics.scrapeGauge(
    'facet_jobs_oldest_queued_age_seconds',
    'How long the longest-waiting runnable job (all instances) has been able to run, by kind; read every 5 s',
    ['kind'],
    (g) => {
      g.reset();
      const { rows, at } = queue.get().value;
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
    (g) => g.set(queue.get().failed ? 1 : 0),
  );

  // Each wait is observed as the job starts (a histogram, so instances add up), not sampled.
  for (const lane of ['urgent', 'general', 'heavy'] as const) metrics.cpuQueueWait.zero({ lane });
  const stopWaits = onCpuWait((lane, seconds) => metrics.cpuQueueWait.observe({ lane }, seconds));
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

  metrics.scrapeGauge('facet_ready', '1 when /readyz answers 200, 0 otherwise (sampled every 2 s)', [], (g) =>
    g.set(ready() ? 1 : 0),
  );
  metrics.scrapeGauge(
    'facet_readiness_check_ok',
    'Each check of /readyz: 1 ok, 0 failing or not checked (start: started and not draining; database; files: the object store); sampled every 2 s',
    ['check'],
    (g) => {
      const { checks } = readiness.get().value;
      for (const [check, v] of Object.entries(checks))
        g.set({ check }, v === 'ok' && !(check === 'start' && src.readiness.isDraining) ? 1 : 0);
    },
  );
  metrics.scrapeGauge('facet_draining', '1 from SIGTERM until the instance exits', [], (g) =>
    g.set(src.readiness.isDraining ? 1 : 0),
  );
  return () => {
    queue.stop();
    readiness.stop();
    stopWaits();
  };
}
