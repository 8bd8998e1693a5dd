import type { JobOutcome } from '../jobs/queue-types.js';
import type { ServerMetrics } from './server-metrics.js';

/**
 * Every way a job run ends (jobs/queue-types.ts). `satisfies` keeps each entry a JobOutcome; the
 * type below fails the build when JobOutcome gains one this list lacks.
 */
export const JOB_OUTCOMES = [
  'succeeded',
  'failed',
  'canceled',
  'retried',
  'deferred',
  'handed_back',
] as const satisfies readonly JobOutcome[];
type Unlisted = Exclude<JobOutcome, (typeof JOB_OUTCOMES)[number]>;
export const JOB_OUTCOMES_COMPLETE: [Unlisted] extends [never] ? true : Unlisted = true;

/** The object store's operations (files/s3/s3-file-store.ts). */
export const OBJECT_STORE_OPERATIONS = ['GET', 'PUT', 'HEAD', 'LIST', 'DELETE'] as const;

/** The token types metered (ServerMetrics.metered). */
const TOKEN_TYPES = ['input', 'output', 'cache_read', 'cache_write'] as const;

/**
 * What each kind of catalog model is metered as (the `operation` of services' and routes' meter
 * calls). An operation missing here still counts; its series then starts at its first call.
 */
const OPERATIONS_BY_MODEL_KIND: Record<string, readonly string[]> = {
  chat: [
    'chat',
    'conversation',
    'mindmap',
    'landing_page',
    'slides.outline',
    'chat.completions',
    'responses',
    'responses.input_tokens',
    'messages',
    'messages.count_tokens',
  ],
  image_generation: ['illustration', 'screenshot', 'images.generations'],
};

export interface KnownLabels {
  /** Job kinds with a registered handler. */
  jobKinds: readonly string[];
  /** Whether files go to an object store (its counters are then zeroed too). */
  objectStore: boolean;
  /** The catalog's models and their kinds. */
  models: ReadonlyArray<{ id: string; kind: string }>;
}

/**
 * Creates every labelled counter's series at 0 for the label values known at start. Prometheus's
 * rate() and increase() need a sample before the first event: a series that appears with the value
 * 1 shows that event as no change at all (the first failed task, drain refusal or store retry).
 * HTTP routes are zeroed as they are registered (http-metrics.ts).
 */
export function zeroKnownSeries(metrics: ServerMetrics, known: KnownLabels): void {
  metrics.httpRefused.inc({ reason: 'draining' }, 0);
  for (const result of ['ready', 'not_ready']) metrics.readinessProbes.inc({ result }, 0);
  for (const kind of known.jobKinds) for (const outcome of JOB_OUTCOMES) metrics.jobsFinished.inc({ kind, outcome }, 0);
  if (known.objectStore)
    for (const operation of OBJECT_STORE_OPERATIONS)
      for (const c of [metrics.objectStoreRequests, metrics.objectStoreRetries, metrics.objectStoreErrors])
        c.inc({ operation }, 0);
  for (const { id: model, kind } of known.models) {
    if (!OPERATIONS_BY_MODEL_KIND[kind]) continue;
    metrics.modelCost.inc({ model }, 0);
    for (const type of TOKEN_TYPES) metrics.modelTokens.inc({ model, type }, 0);
    for (const operation of OPERATIONS_BY_MODEL_KIND[kind]) metrics.modelCalls.inc({ model, operation }, 0);
  }
}
