/** A non-2xx answer from the platform, whatever the surface's error shape was. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly body: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server could not be reached or did not answer in time. */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/**
 * The platform took the connection but did not answer in time: not the same trouble as an
 * unreachable one, so the message names the operation and the limit (and the server's own, when known).
 */
export class RequestTimeoutError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'RequestTimeoutError';
  }
}

/** The profile lacks the credential a call needs; the message says how to get it. */
export class MissingCredentialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingCredentialError';
  }
}

type Loose = Record<string, unknown>;
const isRecord = (v: unknown): v is Loose => typeof v === 'object' && v !== null;
/** A field as message text; an object (a malformed body) is shown as JSON rather than [object Object]. */
const text = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
const stringOr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One entry of a FastAPI-style `detail` list: where, and what is wrong there. */
function detailLine(d: unknown): string {
  const e = isRecord(d) ? d : {};
  const loc: unknown[] = Array.isArray(e.loc) ? e.loc : [];
  return `${loc.join('.')}: ${String(e.msg)}`;
}

/** Reads code and message out of any of the families' error bodies. */
export function describeErrorBody(
  status: number,
  body: unknown,
): { code: string; message: string; requestId?: string } {
  const b: Loose = isRecord(body) ? body : {};
  const requestId = stringOr(b.request_id);
  if (typeof b.code === 'string' && typeof b.message === 'string')
    return { code: b.code, message: b.message, requestId };
  if (Array.isArray(b.detail)) {
    const lines = b.detail.map(detailLine).join('; ');
    return { code: 'VALIDATION_ERROR', message: lines || 'validation failed' };
  }
  if (typeof b.detail === 'string')
    return { code: typeof b.code === 'string' ? b.code : `HTTP_${status}`, message: b.detail };
  if (b.type === 'error' && b.error) {
    const e = isRecord(b.error) ? b.error : {};
    return { code: String(e.type), message: String(e.message), requestId };
  }
  if (isRecord(b.error)) {
    return {
      code: text(b.error.code ?? b.error.type ?? `HTTP_${status}`),
      message: text(b.error.message ?? ''),
      requestId,
    };
  }
  if (typeof b.error === 'string') return { code: b.error, message: text(b.message ?? b.error) };
  return { code: `HTTP_${status}`, message: typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}` };
}
