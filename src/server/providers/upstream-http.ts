import { parseEventStream, SseEventTooLarge, type RawSseEvent } from '../../contract/event-stream.js';
import { Agent, request, errors as undiciErrors } from 'undici';
import { OutboundFetchError } from '../net/errors.js';
import { formatBytes, readCapped, readPrefix } from '../net/read-capped.js';

/** How much of an upstream's error answer is read: its message is shown cut to 500 characters. */
const ERROR_BODY_BYTES = 64 * 1024;

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
  /** The connection pools to use (the gateway's); shared process-wide ones otherwise. */
  pool?: UpstreamPool;
}

/** One undici Agent (a keep-alive Pool per upstream origin) for plain and streamed calls alike. */
export interface UpstreamPool {
  dispatcher: Agent;
  close(): Promise<void>;
}

/** The most a whole (not streamed) upstream answer may be; past it the call fails with a 502. */
export const MAX_UPSTREAM_ANSWER_BYTES = 16 * 1024 * 1024;

const KEEP_ALIVE_MS = 30_000;
const CONNECTIONS = 128;

/**
 * Keep-alive connection pools for upstream calls: a new TCP connection per call would dominate the
 * gateway's overhead. The gateway owns them and closes them with the server, so idle sockets never
 * keep a stopping process alive.
 */
export function createUpstreamPool(): UpstreamPool {
  const dispatcher = new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connections: CONNECTIONS, pipelining: 1 });
  return { dispatcher, close: () => dispatcher.close() };
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

/** A failure before the upstream answered: unreachable or too slow (the caller's own abort passes through). */
function notAnswered(config: UpstreamConfig, err: unknown, timeout: number, signal?: AbortSignal): unknown {
  if (signal?.aborted) return err;
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamError(-1, `the upstream at ${config.baseUrl} did not answer within ${timeout} ms`);
  }
  return new UpstreamError(
    0,
    `cannot reach the upstream at ${config.baseUrl}: ${(err as Error & { code?: string }).code ?? (err as Error).message}`,
  );
}

function answeredWithError(status: number, body: string, retryAfter: string | string[] | undefined): UpstreamError {
  return new UpstreamError(status, errorMessage(body), Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
}

/** POSTs JSON to an upstream; non-2xx answers and network failures become UpstreamError. */
export async function postUpstream(
  config: UpstreamConfig,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  signal?: AbortSignal,
) {
  const url = config.baseUrl.replace(/\/+$/, '') + path;
  const timeout = config.timeoutMs ?? 120_000;
  let res;
  try {
    res = await request(url, {
      method: 'POST',
      dispatcher: config.pool?.dispatcher,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal,
    });
  } catch (err) {
    throw notAnswered(config, err, timeout, signal);
  }
  // Only the start of an error answer is shown, so only that much of it is read.
  if (res.statusCode >= 400)
    throw answeredWithError(
      res.statusCode,
      (await readPrefix(res.body, ERROR_BODY_BYTES)).toString('utf8'),
      res.headers['retry-after'],
    );
  return res;
}

/**
 * POSTs JSON to an upstream and resolves with its JSON answer, for calls that are not streamed: the
 * same request, errors and abort as postUpstream, the answer read under `maxBytes` (a 502 past it).
 */
export async function postUpstreamJson(
  config: UpstreamConfig,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  signal?: AbortSignal,
  maxBytes = MAX_UPSTREAM_ANSWER_BYTES,
): Promise<unknown> {
  const res = await postUpstream(config, path, headers, body, signal);
  let bytes: Buffer;
  try {
    bytes = await readCapped(res.body, maxBytes, config.baseUrl);
  } catch (err) {
    if (!(err instanceof OutboundFetchError)) throw err;
    throw new UpstreamError(502, `the upstream's answer is larger than ${formatBytes(maxBytes)}`, undefined, true);
  }
  // As undici's body.json(): UTF-8, a leading byte order mark dropped.
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return JSON.parse(text);
}

/** Reads a body, turning a connection lost mid-way into an UpstreamError. */
async function* chunks(body: AsyncIterable<Buffer | string>, signal?: AbortSignal): AsyncIterable<Buffer | string> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new UpstreamError(
      502,
      `the upstream stream broke off: ${(err as Error & { code?: string }).code ?? (err as Error).message}`,
      undefined,
      true,
    );
  }
}

/**
 * What one upstream event may hold (its unfinished line and its data): an upstream that never ends
 * a line or an event must not grow the gateway's memory without bound.
 */
export const MAX_UPSTREAM_EVENT_CHARS = 16 * 1024 * 1024;

/** The events of an upstream's server-sent event stream, ending when the caller aborts. */
export async function* sseEvents(
  body: AsyncIterable<Buffer | string>,
  signal?: AbortSignal,
  maxEventChars = MAX_UPSTREAM_EVENT_CHARS,
): AsyncIterable<RawSseEvent> {
  try {
    yield* parseEventStream(chunks(body, signal), { maxEventChars });
  } catch (err) {
    if (!(err instanceof SseEventTooLarge)) throw err;
    throw new UpstreamError(502, `the upstream stream is not usable: ${err.message}`, undefined, true);
  }
}
