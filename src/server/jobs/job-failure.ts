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
