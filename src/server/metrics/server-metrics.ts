import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * prom-client's default collectors that walk every handle, request and resource of the process at
 * scrape time, three of them gauges named `*_total` (promtool refuses a gauge with a counter's
 * suffix). Dropped: metrics/process-sample.ts samples the labelled ones in the background instead.
 */
const DROPPED_DEFAULTS = [
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
];

/**
 * Every metric one server exposes at /metrics, on a registry of its own (not prom-client's global
 * one), so tests and embedders can run several servers in one process. Names follow Prometheus
 * conventions: base units (seconds), `_total` counters, and labels with a bounded set of values
 * (route templates, kinds, lanes, models of the catalog; never an id, key or raw URL). The
 * instance is a default label of every metric.
 */
export class ServerMetrics {
  readonly registry = new Registry();

  readonly httpRequests: Counter<'route' | 'method' | 'status_class'>;
  readonly httpDuration: Histogram<'route' | 'method' | 'status_class'>;
  readonly httpInFlight: Gauge;
  readonly httpRefused: Counter<'reason'>;
  readonly readinessProbes: Counter<'result'>;
  readonly jobsFinished: Counter<'kind' | 'outcome'>;
  readonly jobClaimLatency: Histogram<'kind'>;
  readonly cpuQueueWait: Histogram<'lane'>;
  readonly objectStoreRequests: Counter<'operation'>;
  readonly objectStoreErrors: Counter<'operation'>;
  readonly objectStoreRetries: Counter<'operation'>;
  readonly databaseUnavailable: Counter;
  readonly modelTokens: Counter<'model' | 'type'>;
  readonly modelCost: Counter<'model'>;
  readonly modelCalls: Counter<'model' | 'operation'>;

  constructor(readonly instance: string) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ instance });
    collectDefaultMetrics({ register: this.registry });
    for (const name of DROPPED_DEFAULTS) this.registry.removeSingleMetric(name);
    this.httpRequests = new Counter({
      name: 'facet_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status class',
      labelNames: ['route', 'method', 'status_class'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'facet_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer (streams included)',
      labelNames: ['route', 'method', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers,
    });
    this.httpInFlight = new Gauge({
      name: 'facet_http_requests_in_flight',
      help: 'Requests being answered now (open event streams included)',
      registers,
    });
    this.httpRefused = new Counter({
      name: 'facet_http_requests_refused_total',
      help: 'Requests refused with 503 before any work, by reason (draining: the instance is stopping)',
      labelNames: ['reason'],
      registers,
    });
    this.readinessProbes = new Counter({
      name: 'facet_readiness_probes_total',
      help: 'GET /readyz answered, by result (ready: 200, not_ready: 503); not in facet_http_requests_total, where a refusal the probe exists to give would count as a server error',
      labelNames: ['result'],
      registers,
    });
    this.jobsFinished = new Counter({
      name: 'facet_jobs_finished_total',
      help: 'Job runs of this instance that ended, by kind and outcome (succeeded, failed, canceled, retried: queued again after a failed attempt, deferred: queued again after an outage without using an attempt)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.jobClaimLatency = new Histogram({
      name: 'facet_job_claim_latency_seconds',
      help: 'Time from when a job could run (queued or its retry delay over) to its claim',
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.cpuQueueWait = new Histogram({
      name: 'facet_cpu_pool_queue_wait_seconds',
      help: 'Time a CPU job waited for a worker of its lane, by lane (urgent, general, heavy)',
      labelNames: ['lane'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    });
    this.objectStoreRequests = new Counter({
      name: 'facet_object_store_requests_total',
      help: 'Object-store operations, by operation (each retry counted again)',
      labelNames: ['operation'],
      registers,
    });
    this.objectStoreErrors = new Counter({
      name: 'facet_object_store_errors_total',
      help: 'Object-store operations that failed after their retries, by operation',
      labelNames: ['operation'],
      registers,
    });
    this.objectStoreRetries = new Counter({
      name: 'facet_object_store_retries_total',
      help: 'Object-store attempts that failed and were tried again, by operation',
      labelNames: ['operation'],
      registers,
    });
    this.databaseUnavailable = new Counter({
      name: 'facet_database_unavailable_errors_total',
      help: 'Requests answered 503 because the database could not be reached',
      registers,
    });
    this.modelTokens = new Counter({
      name: 'facet_model_tokens_total',
      help: 'Tokens metered, by catalog model and type (input, output, cache_read, cache_write)',
      labelNames: ['model', 'type'],
      registers,
    });
    this.modelCost = new Counter({
      name: 'facet_model_cost_usd_total',
      help: 'Cost metered (what usage reports and credits are made from), in US dollars, by catalog model',
      labelNames: ['model'],
      registers,
    });
    this.modelCalls = new Counter({
      name: 'facet_model_calls_total',
      help: 'Metered model-like calls, by catalog model and operation',
      labelNames: ['model', 'operation'],
      registers,
    });
  }

  /** One metered call (store/meter.ts meter()). */
  metered(call: {
    model: string;
    operation: string;
    inputTokens?: number;
    outputTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
    costUsd: number;
  }): void {
    const { model } = call;
    this.modelCalls.inc({ model, operation: call.operation });
    const tokens: Array<[string, number | undefined]> = [
      ['input', call.inputTokens],
      ['output', call.outputTokens],
      ['cache_read', call.cacheReadTokens],
      ['cache_write', call.cacheWriteTokens],
    ];
    for (const [type, n] of tokens) if (n) this.modelTokens.inc({ model, type }, n);
    if (call.costUsd > 0) this.modelCost.inc({ model }, call.costUsd);
  }

  /** A gauge set when it is scraped; `collect` may be async (bounded by its caller). */
  scrapeGauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => void | Promise<void>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        return collect(this);
      },
    });
  }

  /**
   * A counter whose value another part keeps (a pool's kills, a connection pool's errors), read on
   * scrape: only ever growing, so exposed as a counter.
   */
  scrapeCounter<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Array<{ labels: Partial<Record<L, string>>; value: number }>,
  ): void {
    new Counter<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        this.reset();
        // Zeros too: a series that appears at its first event hides that event from rate().
        for (const { labels, value } of read()) this.inc(labels, value);
      },
    });
  }

  /** The text exposition format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
