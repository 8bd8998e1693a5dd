import { isStoreUnavailable } from '../store/unavailable.js';

/**
 * A failure the handler knows about. `retryable: false` (the default) fails the job at once;
 * other errors are treated as transient and retried while attempts remain.
 */
export class JobFailure extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable?: boolean } = {}) {
    super(message);
    this.name = 'JobFailure';
    this.retryable = options.retryable ?? false;
  }
}

/**
 * An error that says a dependency could not be reached rather than that the job went wrong: the
 * object store's carry `outage: true`, the database's are its client's connection errors. The job goes back to the queue after a pause
 * without using up an attempt, since running it again sooner or counting it would only fail it
 * during an outage that /readyz already reports.
 */
export function isOutage(err: unknown): boolean {
  return (err as { outage?: unknown } | null)?.outage === true || isStoreUnavailable(err);
}

/** The pause before a job that met an outage runs again (with jitter, so instances spread out). */
export const OUTAGE_REQUEUE_MS = 10_000;
