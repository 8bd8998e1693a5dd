import { HttpError } from '../errors.js';

export { isStoreUnavailable } from '../store/unavailable.js';

/** Seconds a caller is asked to wait during an outage: about what a database restart takes. */
export const OUTAGE_RETRY_AFTER_S = 5;

/** What a request that met an outage answers: 503 with Retry-After, in its surface's shape. */
export function outageError(): HttpError {
  return new HttpError('SERVICE_UNAVAILABLE', 'the database cannot be reached right now; try again shortly', {
    status: 503,
    headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_S) },
  });
}
