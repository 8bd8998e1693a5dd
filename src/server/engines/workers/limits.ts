import { availableParallelism } from 'node:os';
import { HttpError } from '../../errors.js';

/** What bounds the CPU pool; every value has a default and an environment variable. */
export interface CpuLimits {
  /** General workers (threads, and as many render child processes at most). */
  size: number;
  /** Workers of the heavy lane: jobs past their slice, or with a large input. */
  heavySize: number;
  /** How long a job may hold an urgent or general worker before it moves to the heavy lane. */
  sliceMs: number;
  /** Inputs this large (characters and bytes) go to the heavy lane at once. */
  heavyInputSize: number;
  /**
   * Most CPU time a job may use, per job name (`default` for names not listed). Where the job's
   * own CPU time cannot be read (not Linux) it is wall time from the job's start.
   */
  timeoutMs: Record<string, number> & { default: number };
  /** V8 old-generation heap of each worker thread and render child. */
  memoryMb: number;
  /** Jobs that may wait in each lane (general, urgent) before new ones are refused with a 503. */
  queueMax: number;
  /** Jobs one owner may have waiting in a lane. */
  ownerQueueMax: number;
}

/**
 * Time limits by job. Token counts answer a waiting request, but the worst text (CJK, emoji) counts
 * at about 400,000 characters a second, so a 10 MB body needs most of 30 s on a busy machine;
 * documents, decks, renders and seo imports may parse tens of megabytes.
 */
const TIMEOUTS_MS = {
  default: 60_000,
  'count-tokens': 30_000,
  'truncate-tokens': 30_000,
  // Bounded by their budgets (schema-budget.ts, json-shape.ts): the limits only stop a flaw.
  'schema-values': 3_000,
  'json-shape': 10_000,
  'shape-html': 30_000,
  'read-template-theme': 30_000,
  'render-png': 60_000,
  'render-mindmap': 60_000,
  'extract-document': 60_000,
  'write-deck': 60_000,
  'beta-seo-task': 60_000,
};

/** Seconds a caller refused for a full queue is told to wait (Retry-After). */
export const QUEUE_RETRY_AFTER_S = 5;

function positiveInt(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * FACET_CPU_JOB_TIMEOUT_MS is either one number (every job) or `name=ms` pairs separated by commas
 * (those jobs only, e.g. `render-png=5000,count-tokens=2000`); `default=ms` sets unlisted names.
 */
export function parseTimeouts(spec: string | undefined): CpuLimits['timeoutMs'] {
  const out: CpuLimits['timeoutMs'] = { ...TIMEOUTS_MS };
  if (!spec) return out;
  const all = positiveInt(spec.trim());
  if (all !== undefined) {
    for (const k of Object.keys(out)) out[k] = all;
    return out;
  }
  for (const pair of spec.split(',')) {
    const [name, ms] = pair.split('=').map((s) => s.trim());
    const n = positiveInt(ms);
    if (name && n !== undefined) out[name] = n;
  }
  return out;
}

/**
 * The limits from the environment. The pool leaves a core to the event loop: one worker on two
 * cores, at most four (FACET_CPU_WORKERS overrides it).
 */
export function cpuLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): CpuLimits {
  const queueMax = positiveInt(env.FACET_CPU_QUEUE_MAX) ?? 256;
  const size = positiveInt(env.FACET_CPU_WORKERS) ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  return {
    size,
    // Two at least: two callers' heavy jobs share the cores (each limited by its own CPU time).
    heavySize: positiveInt(env.FACET_CPU_HEAVY_WORKERS) ?? Math.max(2, size),
    sliceMs: positiveInt(env.FACET_CPU_SLICE_MS) ?? 1_000,
    heavyInputSize: positiveInt(env.FACET_CPU_HEAVY_INPUT) ?? 1024 * 1024,
    timeoutMs: parseTimeouts(env.FACET_CPU_JOB_TIMEOUT_MS),
    memoryMb: positiveInt(env.FACET_CPU_JOB_MEMORY_MB) ?? 512,
    queueMax,
    ownerQueueMax: Math.min(queueMax, positiveInt(env.FACET_CPU_QUEUE_PER_OWNER) ?? 64),
  };
}

// The errors a job gets from the pool itself (not from its own code). They are HttpErrors so every
// surface shapes them in its own error family; each names the limit and how to raise it.

export function queueFull(lane: string, max: number, perOwner: boolean): HttpError {
  const which = perOwner
    ? `this caller already has ${max} jobs waiting (FACET_CPU_QUEUE_PER_OWNER)`
    : `${max} jobs are already waiting (FACET_CPU_QUEUE_MAX)`;
  return new HttpError(
    'SERVICE_UNAVAILABLE',
    `the server's ${lane} CPU queue is full: ${which}; retry in ${QUEUE_RETRY_AFTER_S} s`,
    {
      status: 503,
      headers: { 'retry-after': String(QUEUE_RETRY_AFTER_S) },
    },
  );
}

/**
 * A job stopped by its CPU-time limit: the message says what it was given (its size and shape),
 * since that, not the server's load, is what made it too long. `wallMs` is set when the limit was
 * wall time (the job's CPU time could not be read, or it ran far past the limit without using it).
 */
export function timeLimitHit(name: string, ms: number, input: string, wallMs?: number): HttpError {
  const spent =
    wallMs === undefined
      ? `used more than its ${ms} ms of CPU time`
      : `ran ${Math.round(wallMs)} ms (its limit: ${ms} ms of CPU time, wall time where CPU time cannot be read)`;
  return new HttpError(
    'CPU_TIME_LIMIT_EXCEEDED',
    `the ${name} job ${spent} on its input, ${input}, and was stopped (FACET_CPU_JOB_TIMEOUT_MS): that input is too large or too intricate for this server`,
    { status: 422 },
  );
}

export function memoryLimitHit(name: string, mb: number): HttpError {
  return new HttpError(
    'CPU_MEMORY_LIMIT_EXCEEDED',
    `the ${name} job ran past its memory limit of ${mb} MB (FACET_CPU_JOB_MEMORY_MB) and was stopped; send smaller input`,
    { status: 422 },
  );
}

export function inputNotPassable(name: string, err: Error): HttpError {
  const why = err instanceof RangeError ? 'it is nested too deeply' : err.message;
  return new HttpError('INPUT_TOO_COMPLEX', `the input of the ${name} job cannot be handed to a worker: ${why}`, {
    status: 422,
  });
}

export function rendererCrashed(name: string, how: string): HttpError {
  return new HttpError(
    'RENDERER_CRASHED',
    `the native renderer stopped while running the ${name} job (${how}); only this request failed`,
    { status: 422 },
  );
}
