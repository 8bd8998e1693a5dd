import type { FetchPolicy } from '../net/policy.js';
import { DEFAULT_MAX_BYTES, safeFetch, type SafeFetchResponse } from '../net/safe-fetch.js';

/** The most a data upstream's answer may be (the outbound fetch's body cap); past it the call fails. */
export const UPSTREAM_MAX_BYTES = DEFAULT_MAX_BYTES;

export interface UpstreamRequest {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** For the whole call: connection, answer and body. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * A call to a data upstream the operator configured (beta data, subtitles) through the one outbound
 * fetch: the answer is streamed under UPSTREAM_MAX_BYTES and the call has one time limit. The
 * configured host is allowed as the operator named it (a local provider on 127.0.0.1 works without
 * --allow-fetch-from); redirects are not followed, so the upstream cannot send the call anywhere
 * the policy would refuse. Failures are OutboundFetchError for the caller to put in its own words.
 */
export function fetchUpstream(
  policy: FetchPolicy,
  baseUrl: string,
  url: URL | string,
  req: UpstreamRequest,
): Promise<SafeFetchResponse> {
  return safeFetch(String(url), {
    policy: policy.allowing(new URL(baseUrl).hostname),
    method: req.method ?? 'GET',
    headers: req.headers,
    body: req.body,
    maxBytes: UPSTREAM_MAX_BYTES,
    timeoutMs: req.timeoutMs,
    signal: req.signal,
    maxRedirects: 0,
  });
}
