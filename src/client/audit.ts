import {
  adminAudit,
  adminLogTail,
  ownAudit,
  ownLogTail,
  type AuditEntry,
  type RequestLogLine,
} from '../contract/audit.js';
import { NEXT_CURSOR_HEADER } from '../contract/image-admin.js';
import { SseParser } from '../contract/event-stream.js';
import { callRouteWithHeaders } from './call.js';
import { ApiError, describeErrorBody } from './errors.js';
import { httpRequest, readBody } from './http.js';
import type { Transport } from './transport.js';

export interface AuditQuery {
  actor?: string;
  action?: string;
  target?: string;
  since?: string;
  until?: string;
  limit?: number;
  cursor?: string;
}

export interface TailQuery {
  status?: string;
  path?: string;
  key?: string;
  method?: string;
}

type Page = { entries: AuditEntry[]; nextCursor: string | null };

export interface TailOptions {
  signal?: AbortSignal;
  /** Called once the server has accepted the tail (2xx), before any line arrives. */
  onOpen?: () => void;
}

/** Reads a tail's `request` events until the server ends it or `signal` aborts; 4xx/5xx answers throw ApiError. */
async function* tail(
  t: Transport,
  route: typeof adminLogTail | typeof ownLogTail,
  query: TailQuery,
  { signal, onOpen }: TailOptions = {},
): AsyncGenerator<RequestLogLine> {
  const url = new URL(t.options.baseUrl.replace(/\/+$/, '') + route.path);
  for (const [k, v] of Object.entries(query) as [string, string | undefined][])
    if (v !== undefined) url.searchParams.set(k, v);
  // The server sends a heartbeat comment every 15 s by default; three missed ones mean it is gone.
  const res = await httpRequest(url, {
    method: 'GET',
    headers: { ...t.headersFor(route.auth), accept: 'text/event-stream' },
    signal,
    headersTimeout: 30_000,
    bodyTimeout: 60_000,
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
    throw new ApiError(
      res.statusCode,
      d.code,
      d.message,
      d.requestId ?? (res.headers['x-request-id'] as string | undefined),
      body,
    );
  }
  onOpen?.();
  const parser = new SseParser({ maxEventChars: 64 * 1024 });
  res.body.setEncoding('utf8');
  for await (const chunk of res.body) {
    for (const raw of parser.push(chunk as string))
      if (raw.event === 'request') yield JSON.parse(raw.data) as RequestLogLine;
  }
}

export const auditClient = (t: Transport) => {
  const page = async (route: typeof adminAudit | typeof ownAudit, query: AuditQuery): Promise<Page> => {
    const { body, headers } = await callRouteWithHeaders(t, route, { query });
    const next = headers[NEXT_CURSOR_HEADER];
    return { entries: body, nextCursor: typeof next === 'string' && next ? next : null };
  };
  return {
    /** One page of everyone's entries (admins), newest first, and the next page's cursor. */
    adminPage: (query: AuditQuery = {}) => page(adminAudit, query),
    /** One page of the caller's own entries. */
    ownPage: (query: AuditQuery = {}) => page(ownAudit, query),
    /** Everyone's requests as they are answered (admins). */
    tailAll: (query: TailQuery = {}, options?: TailOptions) => tail(t, adminLogTail, query, options),
    /** The requests made with the caller's own keys. */
    tailOwn: (query: TailQuery = {}, options?: TailOptions) => tail(t, ownLogTail, query, options),
  };
};
