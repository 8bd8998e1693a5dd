import { parseEventStream, type RawSseEvent } from '../../contract/event-stream.js';
import { Agent, request, errors as undiciErrors } from 'undici';

/** An upstream's answer the gateway turns into the caller's error shape. */
export class UpstreamError extends Error {
  constructor(
    /** The upstream's HTTP status, or 0 when it could not be reached, -1 on a timeout. */
    readonly status: number,
    message: string,
    readonly retryAfter?: string,
    /** True when the message is the platform's own diagnosis, not text the upstream sent. */
    readonly diagnosed = false,
  ) {
    super(message);
  }
}

export interface UpstreamConfig {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  /** The connection pool to use (the gateway's); undici's global one otherwise. */
  pool?: Agent;
}

/**
 * A keep-alive connection pool for upstream calls: a new TCP connection per call would dominate the
 * gateway's overhead. The gateway owns one and closes it with the server, so idle sockets never keep
 * a stopping process alive.
 */
export function createUpstreamPool(): Agent {
  return new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1 });
}

function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof parsed.error === 'string') return parsed.error;
    return parsed.error?.message ?? parsed.message ?? body.slice(0, 500);
  } catch {
    return body.slice(0, 500);
  }
}

/** POSTs JSON to an upstream; non-2xx answers and network failures become UpstreamError. */
export async function postUpstream(config: UpstreamConfig, path: string, headers: Record<string, string>, body: unknown, signal?: AbortSignal) {
  const url = config.baseUrl.replace(/\/+$/, '') + path;
  const timeout = config.timeoutMs ?? 120_000;
  let res;
  try {
    res = await request(url, {
      method: 'POST',
      dispatcher: config.pool,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
      throw new UpstreamError(-1, `the upstream at ${config.baseUrl} did not answer within ${timeout} ms`);
    }
    throw new UpstreamError(0, `cannot reach the upstream at ${config.baseUrl}: ${(err as Error & { code?: string }).code ?? (err as Error).message}`);
  }
  if (res.statusCode >= 400) {
    const text = await res.body.text();
    const retry = res.headers['retry-after'];
    throw new UpstreamError(res.statusCode, errorMessage(text), Array.isArray(retry) ? retry[0] : retry);
  }
  return res;
}

/** Reads a body, turning a connection lost mid-way into an UpstreamError. */
async function* chunks(body: AsyncIterable<Buffer | string>, signal?: AbortSignal): AsyncIterable<Buffer | string> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new UpstreamError(502, `the upstream stream broke off: ${(err as Error & { code?: string }).code ?? (err as Error).message}`, undefined, true);
  }
}

/** The events of an upstream's server-sent event stream, ending when the caller aborts. */
export function sseEvents(body: AsyncIterable<Buffer | string>, signal?: AbortSignal): AsyncIterable<RawSseEvent> {
  return parseEventStream(chunks(body, signal));
}
