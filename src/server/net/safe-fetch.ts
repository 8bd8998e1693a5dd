import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { OutboundFetchError } from './errors.js';
import { pinnedLookup } from './pinned-lookup.js';
import type { FetchPolicy } from './policy.js';
import { formatBytes, readCapped } from './read-capped.js';
import { ACCEPT_ENCODING, decodeBody } from './decode-body.js';
import type { ConnectionPool } from './connection-pool.js';

export const DEFAULT_MAX_BYTES = 15 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const USER_AGENT = 'facet/1 (+local platform)';

export interface SafeFetchOptions {
  policy: FetchPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The body is cut here (decompressed, and as it came): the fetch fails as soon as more arrives. Default 15 MiB. */
  maxBytes?: number;
  /** For the whole fetch: every hop, connection and the body. Default 15 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Redirects followed, each hop checked against the policy. Default 5; 0 returns the 3xx itself. */
  maxRedirects?: number;
  /** Every hop must be https: a redirect to plain http is refused, not followed (the first URL is the caller's to check). */
  httpsOnly?: boolean;
  /** Keep-alive connections shared by many fetches (still pinned per checked target); default: one connection per hop. */
  pool?: ConnectionPool;
}

export interface SafeFetchResponse {
  status: number;
  headers: Headers;
  /** The URL that answered, after redirects. */
  url: string;
  /** Every URL fetched before `url`, in order. */
  redirects: string[];
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * THE outbound fetch for anything fetched on a user's behalf. Per hop: the policy resolves the host
 * once and checks every address; the connection goes to a checked address only (pinned lookup);
 * redirects are followed by hand so each Location is checked the same way; the body is read as a
 * stream under `maxBytes`; one time limit covers everything. Every failure is an OutboundFetchError
 * except the caller's own abort, which rethrows the caller's reason.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResponse> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    'accept-encoding': ACCEPT_ENCODING,
    ...lowerKeys(options.headers ?? {}),
  };
  const redirects: string[] = [];
  let current = url;

  for (;;) {
    const target = await options.policy.check(current, {
      redirectedFrom: redirects.at(-1),
      resolvedHosts: options.pool?.resolvedHosts,
    });
    const agent =
      options.pool?.agentFor(target) ??
      new Agent({ connect: { lookup: pinnedLookup(target.addresses), timeout: Math.min(timeoutMs, 10_000) } });
    try {
      const res = await request(target.url, { dispatcher: agent, method, headers, body, signal }).catch((err) => {
        throw failure(err, target.url.href, options.signal, timeout, timeoutMs);
      });
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && maxRedirects > 0) {
        discard(res.body);
        if (redirects.length >= maxRedirects) {
          throw new OutboundFetchError(
            'too-many-redirects',
            `${url} redirected more than ${maxRedirects} times`,
            target.url.href,
          );
        }
        let next: URL;
        try {
          next = new URL(location, target.url);
        } catch {
          throw new OutboundFetchError(
            'invalid-url',
            `${target.url.href} redirected to an invalid URL: ${location}`,
            target.url.href,
          );
        }
        if (options.httpsOnly && next.protocol !== 'https:') {
          throw new OutboundFetchError(
            'refused',
            `refused to fetch ${next.href} (redirected from ${target.url.href}): only https URLs are fetched here, and a redirect may not leave https`,
            next.href,
          );
        }
        // Credentials given for one origin are not handed to another.
        if (next.origin !== target.url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
        if (
          res.statusCode === 303
            ? method !== 'HEAD'
            : (res.statusCode === 301 || res.statusCode === 302) && method === 'POST'
        ) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        redirects.push(target.url.href);
        current = next.href;
        continue;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        throw new OutboundFetchError(
          'too-large',
          `the response from ${target.url.href} is larger than ${formatBytes(maxBytes)}`,
          target.url.href,
        );
      }
      // A HEAD answer, 204 and 304 have no body to decode whatever their headers say.
      const bodyless = method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
      const decoded = decodeBody(
        res.body,
        bodyless ? undefined : res.headers['content-encoding'],
        maxBytes,
        target.url.href,
      );
      const bytes = await readCapped(decoded.body, maxBytes, target.url.href, {
        decompressed: decoded.codings.length > 0,
      }).catch((err) => {
        if (err instanceof OutboundFetchError) throw err;
        throw (
          (!options.signal?.aborted && !timeout.aborted && decoded.failure()) ||
          failure(err, target.url.href, options.signal, timeout, timeoutMs)
        );
      });
      const answered = toHeaders(res.headers);
      // The body is returned decoded, so the headers describing the encoded one no longer apply.
      if (decoded.codings.length > 0) for (const h of ['content-encoding', 'content-length']) answered.delete(h);
      return { status: res.statusCode, headers: answered, url: target.url.href, redirects, body: bytes };
    } finally {
      if (!options.pool) await agent.destroy().catch(() => undefined);
    }
  }
}

function failure(
  err: unknown,
  url: string,
  callerSignal: AbortSignal | undefined,
  timeout: AbortSignal,
  timeoutMs: number,
): unknown {
  if (callerSignal?.aborted) return callerSignal.reason ?? err;
  if (timeout.aborted)
    return new OutboundFetchError('timeout', `${url} did not answer within ${Math.round(timeoutMs / 1000)} s`, url);
  const e = err as Error & { code?: string; cause?: { code?: string } };
  return new OutboundFetchError('network', `cannot fetch ${url}: ${e.code ?? e.cause?.code ?? e.message}`, url);
}

/** Drops a body unread; undici reports the abort as an error event, which nobody needs. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
  }
  return out;
}
