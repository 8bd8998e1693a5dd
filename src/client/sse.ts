import { setTimeout as delay } from 'node:timers/promises';
import type { StreamEvent } from '../contract/conversations.js';
import { ApiError, NetworkError, describeErrorBody } from './errors.js';
import { httpRequest, readBody, type HttpRequestFn } from './http.js';
import { SseParser, type RawSseEvent } from '../contract/event-stream.js';

export { SseParser, type RawSseEvent } from '../contract/event-stream.js';

export interface StreamOptions {
  url: string;
  headers: Record<string, string>;
  /** Events already received; the stream starts after them. */
  offset?: number;
  signal?: AbortSignal;
  /** Reconnects in a row without receiving an event before giving up (default 5). */
  maxReconnects?: number;
  /** Told about each reconnect, for a "reconnecting…" hint. */
  onReconnect?: (info: { offset: number; attempt: number; reason: string }) => void;
  /** Told when the connection is open (the server answered 200). */
  onOpen?: () => void;
  idleTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Sends the request (default: over a socket). */
  request?: HttpRequestFn;
}

function toEvent(raw: RawSseEvent, offset: number): StreamEvent | null {
  if (raw.event !== 'message' && raw.event !== 'done' && raw.event !== 'error') return null;
  let data: unknown;
  try {
    data = raw.data ? JSON.parse(raw.data) : {};
  } catch {
    data = raw.event === 'message' ? { content: raw.data } : { message: raw.data };
  }
  return { offset, event: raw.event, data } as StreamEvent;
}

/**
 * Reads a conversation stream to its end: yields message events, then done or error. When the
 * connection drops first, it reconnects with ?offset=<events received>, so every event arrives
 * exactly once. 4xx answers (unknown or expired key) throw ApiError at once.
 */
export async function* streamEvents(options: StreamOptions): AsyncGenerator<StreamEvent> {
  let offset = options.offset ?? 0;
  let failures = 0;
  const maxReconnects = options.maxReconnects ?? 5;
  const sleep = options.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  for (;;) {
    const url = new URL(options.url);
    url.searchParams.set('offset', String(offset));
    let reason: string;
    try {
      const res = await (options.request ?? httpRequest)(url, {
        method: 'GET',
        headers: { ...options.headers, accept: 'text/event-stream' },
        signal: options.signal,
        headersTimeout: 30_000,
        bodyTimeout: options.idleTimeoutMs ?? 60_000,
      });
      if (res.statusCode >= 400) {
        const text = (await readBody(res.body)).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const d = describeErrorBody(res.statusCode, body);
        const err = new ApiError(
          res.statusCode,
          d.code,
          d.message,
          d.requestId ?? (res.headers['x-request-id'] as string | undefined),
          body,
        );
        if (res.statusCode < 500) throw err;
        reason = `HTTP ${res.statusCode}`;
      } else {
        options.onOpen?.();
        const parser = new SseParser();
        res.body.setEncoding('utf8');
        for await (const chunk of res.body) {
          for (const raw of parser.push(chunk as string)) {
            // The server's id is the offset after the event; trust it when present (a terminal event
            // re-sent to a reader already past it carries its own position, not the reader's).
            const after = raw.id && /^\d+$/.test(raw.id) ? Number(raw.id) : offset + 1;
            const ev = toEvent(raw, after - 1);
            if (!ev) continue;
            offset = after;
            failures = 0;
            yield ev;
            if (ev.event === 'done' || ev.event === 'error') return;
          }
        }
        reason = 'the server closed the connection before the end of the answer';
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const e = err as Error & { code?: string };
      if (e.name === 'AbortError' || options.signal?.aborted) throw err;
      reason = e.code ?? e.message;
    }
    failures++;
    if (failures > maxReconnects)
      throw new NetworkError(
        `the stream dropped ${failures} times in a row (${reason}); resume with --offset ${offset}`,
        options.url,
      );
    options.onReconnect?.({ offset, attempt: failures, reason });
    await sleep(Math.min(5000, 200 * 2 ** (failures - 1)));
  }
}
