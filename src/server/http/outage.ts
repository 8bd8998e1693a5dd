import { HttpError } from '../errors.js';

/** Connection-level failures of the database client: the database, not the request, is at fault. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY',
]);
/** PostgreSQL's connection exceptions (class 08) and operator interventions (57P01-57P03: shutdown, restart). */
const PG_STATES = /^(08\d{3}|57P0[1-3])$/;
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether an error means the database cannot be reached now (an outage), rather than a bug. */
export function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PG_STATES.test(e.code))) return true;
  return typeof e.message === 'string' && PG_MESSAGES.test(e.message);
}

/** Seconds a caller is asked to wait during an outage: about what a database restart takes. */
export const OUTAGE_RETRY_AFTER_S = 5;

/** What a request that met an outage answers: 503 with Retry-After, in its surface's shape. */
export function outageError(): HttpError {
  return new HttpError('SERVICE_UNAVAILABLE', 'the database cannot be reached right now; try again shortly', {
    status: 503,
    headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_S) },
  });
}
