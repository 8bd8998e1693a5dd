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

/** Pauses between tries while the database is away: short at first, then every few seconds. */
export function outageBackoffMs(tries: number): number {
  const base = Math.min(5_000, 100 * 2 ** Math.min(tries, 6));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/**
 * Runs `fn` until it succeeds or fails for a reason other than an outage, pausing with backoff
 * between tries while the database cannot be reached: background writers (streams, job finishers)
 * ride out an outage as requests do, instead of losing their write. `stop()`: give up (a drain).
 */
export async function untilStoreAnswers<T>(
  fn: () => Promise<T>,
  options: { stop?: () => boolean; onOutage?: (err: unknown, tries: number) => void } = {},
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await fn();
    } catch (err) {
      if (!isStoreUnavailable(err) || options.stop?.()) throw err;
      options.onOutage?.(err, tries);
      await new Promise((r) => setTimeout(r, outageBackoffMs(tries)));
    }
  }
}
