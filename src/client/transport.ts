import { setTimeout as delay } from 'node:timers/promises';
import type { AuthGroup } from '../contract/route.js';
import { ApiError, MissingCredentialError, NetworkError, RequestTimeoutError, describeErrorBody } from './errors.js';
import { HttpTimeoutError, httpRequest, readBody, type HttpRequestFn, type HttpResponse } from './http.js';
import type { MultipartBody } from './multipart.js';

export interface Credentials {
  apiKey?: string;
  accessToken?: string;
  adminKey?: string;
}

export interface TransportOptions {
  baseUrl: string;
  /** Where the unversioned image-service paths live, when mounted elsewhere. */
  imageBaseUrl?: string;
  credentials: Credentials;
  timeoutMs?: number;
  /** Extra attempts after a 429 or 503. */
  retries?: number;
  /** Receives one line per request for --debug; credentials never reach it. */
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
  /** Sends the requests (default: over a socket); the server's MCP endpoint passes an in-process one. */
  request?: HttpRequestFn;
}

export interface RequestSpec {
  method: string;
  path: string;
  auth: AuthGroup;
  /** Which base URL: the image service's or the platform's. */
  service?: 'image' | 'platform';
  query?: Record<string, string | number | boolean | undefined | Array<string | number>>;
  body?: unknown;
  form?: MultipartBody;
  headers?: Record<string, string>;
  /** Return the raw response instead of parsing JSON or throwing on errors. */
  raw?: boolean;
  signal?: AbortSignal;
  /** Overrides the transport's retries for this request (0: a 429 is returned at once). */
  retries?: number;
  /**
   * Follow a redirect (a download the platform sends to its object store's presigned URL). The next
   * request carries no credentials: the URL is its own authorization, and the key must not leave.
   */
  followRedirects?: boolean;
  /** What a timeout message calls this request ("web extract"); default "METHOD /path". */
  operation?: string;
  /** The client's wait for this request, when it needs longer than the transport's timeoutMs. */
  timeoutMs?: number;
  /** How long the server itself works on this request before it answers with an error, when known. */
  serverLimitMs?: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  requestId?: string;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** "web extract did not answer within 75 s (the server gives up after 60 s)". */
function timeoutMessage(spec: RequestSpec, err: HttpTimeoutError, waitedMs: number): string {
  const what = spec.operation ?? `${spec.method} ${spec.path}`;
  const server = spec.serverLimitMs ? ` (the server gives up after ${seconds(spec.serverLimitMs)})` : '';
  return err.code === 'HEADERS_TIMEOUT'
    ? `${what} did not answer within ${seconds(waitedMs)}${server}`
    : `${what} stopped sending its answer for ${seconds(waitedMs)}${server}`;
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-admin-key', 'cookie']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** A presigned URL's signature is a credential for its lifetime: debug lines show the URL without its query. */
function redactUrl(u: string): string {
  const url = new URL(u);
  return url.search ? `${url.origin}${url.pathname}?[redacted]` : u;
}

export function authHeaders(group: AuthGroup, c: Credentials): Record<string, string> {
  const need = (value: string | undefined, what: string, hint: string) => {
    if (!value) throw new MissingCredentialError(`this call needs ${what}; ${hint}`);
    return value;
  };
  const keyHint = 'run `facet login` or set FACET_API_KEY';
  switch (group) {
    case 'none':
      return {};
    case 'access-token':
      return {
        authorization: `Bearer ${need(c.accessToken, 'an access token', 'run `facet login --token-stdin`, `facet login --local`, or set FACET_ACCESS_TOKEN')}`,
      };
    case 'token-or-key':
    case 'token-key-or-cookie':
      if (c.apiKey) return { 'x-api-key': c.apiKey };
      return { authorization: `Bearer ${need(c.accessToken, 'an API key or an access token', keyHint)}` };
    case 'admin':
    case 'admin-or-cookie':
      return { 'x-api-key': need(c.apiKey, "an administrator's API key", keyHint) };
    case 'admin-with-admin-key':
      return {
        'x-api-key': need(c.apiKey, "an administrator's API key", keyHint),
        'x-admin-key': need(c.adminKey, 'the admin key', 'run `facet login --admin-key-stdin` or set FACET_ADMIN_KEY'),
      };
    case 'bearer-key':
    case 'key':
      return { authorization: `Bearer ${need(c.apiKey, 'an API key', keyHint)}` };
  }
}

function buildUrl(base: string, path: string, query: RequestSpec['query']): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}

/** Retry-After is seconds or an HTTP date. */
function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? '[redacted]' : v]),
  );
}

export type Transport = ReturnType<typeof createTransport>;

/**
 * The one way the CLI talks to the platform: auth headers by route group, timeouts, bounded retry
 * with backoff and jitter on 429/503 honouring Retry-After, request ids, typed errors.
 */
export function createTransport(options: TransportOptions) {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 2;
  const sleep = options.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const debug = options.debug;
  const request = options.request ?? httpRequest;

  async function send(spec: RequestSpec): Promise<RawResponse> {
    const base = spec.service === 'image' && options.imageBaseUrl ? options.imageBaseUrl : options.baseUrl;
    const url = buildUrl(base, spec.path, spec.query);
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? 'facet-cli',
      accept: 'application/json',
      ...authHeaders(spec.auth, options.credentials),
      ...spec.headers,
    };
    let body: string | Buffer | undefined;
    if (spec.form) {
      headers['content-type'] = spec.form.contentType;
      headers['content-length'] = String(spec.form.length);
    } else if (spec.body !== undefined) {
      body = typeof spec.body === 'string' || Buffer.isBuffer(spec.body) ? spec.body : JSON.stringify(spec.body);
      headers['content-type'] ??= 'application/json';
    }
    const waitMs = Math.max(timeoutMs, spec.timeoutMs ?? 0);
    for (let attempt = 0; ; attempt++) {
      // Timed for --debug only: the global `performance` loads perf_hooks on first use.
      const started = debug ? performance.now() : 0;
      debug?.(`→ ${spec.method} ${url} ${JSON.stringify(redactHeaders(headers))}`);
      let res;
      try {
        res = await request(url, {
          method: spec.method,
          headers,
          body: spec.form ? spec.form.stream() : body,
          headersTimeout: waitMs,
          bodyTimeout: waitMs,
          signal: spec.signal,
        });
      } catch (err) {
        const e = err as Error & { code?: string };
        debug?.(`✗ ${spec.method} ${url} ${e.code ?? e.name} after ${Math.round(performance.now() - started)} ms`);
        if (e.name === 'AbortError') throw err;
        if (e instanceof HttpTimeoutError) throw new RequestTimeoutError(timeoutMessage(spec, e, waitMs), url);
        throw new NetworkError(`cannot reach ${base}: ${e.code ?? e.message}`, url);
      }
      let buf: Buffer;
      try {
        buf = await readBody(res.body);
      } catch (err) {
        if (err instanceof HttpTimeoutError) throw new RequestTimeoutError(timeoutMessage(spec, err, waitMs), url);
        throw err;
      }
      const requestId = res.headers['x-request-id'] as string | undefined;
      debug?.(
        `← ${res.statusCode} ${spec.method} ${url} ${Math.round(performance.now() - started)} ms request-id=${requestId ?? '-'}`,
      );
      // x-should-retry: false marks a 503 no retry can cure (an unconfigured upstream).
      const retryable =
        (res.statusCode === 429 || res.statusCode === 503) &&
        attempt < (spec.retries ?? retries) &&
        res.headers['x-should-retry'] !== 'false';
      if (retryable && !spec.form) {
        const hinted = retryAfterSeconds(res.headers['retry-after']);
        const backoff = 250 * 2 ** attempt;
        const waitMs = Math.min(30_000, hinted !== undefined ? hinted * 1000 : backoff) + Math.random() * 100;
        debug?.(`  retrying in ${Math.round(waitMs)} ms (attempt ${attempt + 2} of ${(spec.retries ?? retries) + 1})`);
        await sleep(waitMs);
        continue;
      }
      const location = res.headers.location;
      if (spec.followRedirects && REDIRECTS.has(res.statusCode) && typeof location === 'string') {
        return followRedirect(new URL(location, url).toString(), spec, requestId);
      }
      return { status: res.statusCode, headers: res.headers, body: buf, requestId };
    }
  }

  /**
   * GETs a link that is its own authorization (a signed page link, a presigned object-store URL):
   * no credentials are sent, redirects are followed (at most MAX_REDIRECTS), and the body is left
   * as a stream for the caller to save or read.
   */
  async function openLink(link: string, signal?: AbortSignal): Promise<HttpResponse> {
    let target = link;
    for (let hops = 0; ; hops++) {
      debug?.(`→ GET ${redactUrl(target)} (no credentials)`);
      let res: HttpResponse;
      try {
        res = await request(target, {
          method: 'GET',
          headers: { 'user-agent': options.userAgent ?? 'facet-cli', accept: '*/*' },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal,
        });
      } catch (err) {
        const e = err as Error & { code?: string };
        if (e.name === 'AbortError') throw err;
        throw new NetworkError(`cannot reach ${new URL(target).origin}: ${e.code ?? e.message}`, redactUrl(target));
      }
      debug?.(`← ${res.statusCode} GET ${redactUrl(target)}`);
      const location = res.headers.location;
      if (!REDIRECTS.has(res.statusCode) || typeof location !== 'string') return res;
      res.body.resume();
      if (hops + 1 >= MAX_REDIRECTS)
        throw new NetworkError(`too many redirects from ${new URL(link).origin}`, redactUrl(link));
      target = new URL(location, target).toString();
    }
  }

  /** A redirect's target, read whole (the platform sent a download to its object store). */
  async function followRedirect(
    target: string,
    spec: RequestSpec,
    requestId: string | undefined,
  ): Promise<RawResponse> {
    const res = await openLink(target, spec.signal);
    return { status: res.statusCode, headers: res.headers, body: await readBody(res.body), requestId };
  }

  /** Sends and parses JSON; non-2xx answers become ApiError. */
  async function call<T = unknown>(spec: RequestSpec): Promise<T> {
    return toResult<T>(await send(spec));
  }

  function toResult<T>(res: RawResponse): T {
    const text = res.body.toString('utf8');
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (res.status >= 400) {
      const d = describeErrorBody(res.status, parsed);
      throw new ApiError(
        res.status,
        d.code,
        d.message,
        d.requestId ?? res.requestId,
        parsed,
        retryAfterSeconds(res.headers['retry-after']),
      );
    }
    return parsed as T;
  }

  /** Auth headers of a route group, for requests made outside send() (event streams). */
  const headersFor = (group: AuthGroup) => authHeaders(group, options.credentials);

  return { send, call, openLink, options, parse: toResult, headersFor };
}
