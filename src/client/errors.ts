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

/** Reads code and message out of any of the families' error bodies. */
export function describeErrorBody(
  status: number,
  body: unknown,
): { code: string; message: string; requestId?: string } {
  const b = (body ?? {}) as Record<string, any>;
  if (typeof b.code === 'string' && typeof b.message === 'string')
    return { code: b.code, message: b.message, requestId: b.request_id };
  if (Array.isArray(b.detail)) {
    const text = b.detail.map((d: any) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ');
    return { code: 'VALIDATION_ERROR', message: text || 'validation failed' };
  }
  if (typeof b.detail === 'string')
    return { code: typeof b.code === 'string' ? b.code : `HTTP_${status}`, message: b.detail };
  if (b.type === 'error' && b.error)
    return { code: String(b.error.type), message: String(b.error.message), requestId: b.request_id };
  if (b.error && typeof b.error === 'object') {
    return {
      code: String(b.error.code ?? b.error.type ?? `HTTP_${status}`),
      message: String(b.error.message ?? ''),
      requestId: b.request_id,
    };
  }
  if (typeof b.error === 'string') return { code: b.error, message: String(b.message ?? b.error) };
  return { code: `HTTP_${status}`, message: typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}` };
}
