import type { Kysely } from 'kysely';
import type { Database, JobState } from '../store/database.js';
import type { JobRow } from './jobs.repo.js';
import type { JobFailure } from './job-failure.js';
import type { JobLimits } from './limits.js';
import type { OutageWindow } from './outage-window.js';

/** What a handler gets for one attempt of one job. */
export interface JobContext<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted on cancel, on shutdown, and when the lease is lost; engines pass it down. */
  signal: AbortSignal;
  /**
   * A timestamped line in the job's log (GET /tasks/{id}/logs shows them). Lines are committed in
   * the order they were logged, and all of them before the run's end; a handler need not wait for
   * one before going on (the promise settles when it is committed, and a failed line fails the run).
   * A function property, not a method: it is bound to its run and handed to engines as it is.
   */
  log: (line: string) => Promise<void>;
}

export type JobHandler<P = unknown> = (job: JobContext<P>) => Promise<unknown>;

export interface KindOptions {
  /**
   * Runs of one job before it fails for good, counting failed runs only: a run cut short by the
   * server's death is counted apart, against the queue's `maxCrashes`. Default 3.
   */
  maxAttempts?: number;
  /** Wait before a retry after a transient failure: delay * 2^(attempt-1). Default 1000 ms. */
  retryDelayMs?: number;
  /** A run still going after this long is stopped and the job failed (the operator's budget wins). Default 30 min. */
  timeBudgetMs?: number;
}

export interface QueueOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** Jobs run at once by this process. */
  concurrency: number;
  /** A claimed job belongs to this process until now + leaseMs; heartbeats renew it. */
  leaseMs?: number;
  /** How often to look for work others enqueued and retries that came due. */
  pollMs?: number;
  /**
   * At start-up, treat every running job as orphaned, not only expired leases. True for SQLite:
   * its file belongs to one server process, so a running job at start-up was left by a crash.
   */
  recoverAllRunningAtStart: boolean;
  onError?: (err: unknown, where: string) => void;
  /** Time budgets and the crash limit (jobs/limits.ts); defaults when absent. */
  limits?: JobLimits;
  /** Told of claims and of how runs end (for /metrics). */
  observer?: JobObserver;
  /** The pause before a job that met an outage runs again (default OUTAGE_REQUEUE_MS). */
  outageRequeueMs?: number;
}

/**
 * How a run of this process ended: its final states, or queued again (`retried` after a failed
 * attempt, `deferred` after an outage without using an attempt, `handed_back` at shutdown).
 */
export type JobOutcome = 'succeeded' | 'failed' | 'canceled' | 'retried' | 'deferred' | 'handed_back';

export interface JobObserver {
  /** A job was claimed by this process, `waitedMs` after it could first run. */
  claimed(kind: string, waitedMs: number): void;
  finished(kind: string, outcome: JobOutcome): void;
}

export interface JobEvent {
  id: string;
  kind: string;
  state: JobState;
  error: string | null;
}

export type AbortReason = 'canceled' | 'shutdown' | 'lease-lost' | 'over-budget';

/** A job this process runs: how to stop it, why it was stopped, and when it has ended. */
export interface Running {
  kind: string;
  controller: AbortController;
  reason?: AbortReason;
  /** Set when the run outlived its time budget: the job's error. */
  overBudget?: JobFailure;
  done: Promise<void>;
  /** Rejects when a stopping queue stops waiting for the run (its handler ignored the abort). */
  abandoned: Promise<never>;
  abandon: () => void;
  wasAbandoned?: boolean;
}

/** What the parts of the queue (claim loop, runs, recovery) share: the queue's own state and helpers. */
export interface QueueCore {
  readonly options: QueueOptions;
  readonly owner: string;
  readonly leaseMs: number;
  readonly handlers: Map<string, { handler: JobHandler; options: Required<KindOptions> }>;
  readonly running: Map<string, Running>;
  /** An ISO time `offsetMs` from the queue's clock's now. */
  iso(offsetMs?: number): string;
  emit(job: Pick<JobRow, 'id' | 'kind' | 'state' | 'error'>): void;
  /** A job may have become claimable (queued again, a retry, a recovered orphan). */
  workQueued(): void;
  /** When this process could not reach the database (recovery counts no crash for leases lost then). */
  readonly outages: OutageWindow;
  /** Notes a store call's outcome: an outage begins on an unreachable database, ends on an answer. */
  sawStore(err?: unknown): void;
}
