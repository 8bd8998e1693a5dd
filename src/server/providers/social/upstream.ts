import { HttpError } from '../../errors.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { OutboundFetchError } from '../../net/errors.js';
import type { FetchPolicy } from '../../net/policy.js';
import type { SocialProvider } from './provider.js';

export interface SocialUpstreamConfig {
  /** The compatible provider's base URL; the same paths (/v2/social/…, /v1/beta/social/…) are called there. */
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
}

/** An upstream's answer in our terms: 400 stays a 400, 429 stays a 429, anything else is a 500. */
function mapFailure(status: number, body: Buffer, retryAfter: string | null): HttpError {
  let message = body.toString('utf8').slice(0, 500);
  try {
    const parsed = JSON.parse(message) as { message?: string; msg?: string; error?: { message?: string } | string };
    message =
      parsed.message ??
      parsed.msg ??
      (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ??
      message;
  } catch {
    // not JSON: the text itself
  }
  if (status === 429)
    return new HttpError('RATE_LIMIT_EXCEEDED', `the social data provider is rate limiting: ${message}`, {
      headers: retryAfter ? { 'retry-after': retryAfter } : {},
      extra: { status: 429 },
    });
  if (status >= 400 && status < 500)
    return new HttpError(
      'SOCIAL_SEARCH_FAILED',
      `the social data provider refused the request (${status}): ${message}`,
      { status: 400 },
    );
  return new HttpError('SOCIAL_SEARCH_FAILED', `the social data provider failed (${status}): ${message}`, {
    status: 500,
  });
}

/**
 * The upstream provider: each call goes to the configured provider through the platform's one
 * outbound fetch (policy, size cap, timeout); answers are passed through unchanged (v2 data is
 * taken out of its envelope so the platform wraps it again).
 */
export function upstreamSocialProvider(config: SocialUpstreamConfig, policy: FetchPolicy): SocialProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const headers = (json: boolean): Record<string, string> => ({
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
  });

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let res;
    try {
      res = await safeFetch(base + path, {
        policy,
        method,
        headers: headers(method === 'POST'),
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: config.timeoutMs ?? 30_000,
        maxRedirects: 0,
      });
    } catch (err) {
      if (err instanceof OutboundFetchError)
        throw new HttpError('SOCIAL_SEARCH_FAILED', `the social data provider could not be reached: ${err.message}`, {
          status: 500,
        });
      throw err;
    }
    if (res.status < 200 || res.status >= 300) throw mapFailure(res.status, res.body, res.headers.get('retry-after'));
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new HttpError('SOCIAL_SEARCH_FAILED', 'the social data provider answered with something that is not JSON', {
        status: 500,
      });
    }
  }

  const v2 = async <T>(path: string, body: unknown): Promise<T> => {
    const answer = (await call('POST', path, body)) as { data?: T };
    if (!answer || typeof answer !== 'object' || !('data' in answer))
      throw new HttpError('SOCIAL_SEARCH_FAILED', 'the social data provider answered without a v2 envelope', {
        status: 500,
      });
    return answer.data as T;
  };
  const query = (q: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)).toString();

  return {
    kind: 'upstream',
    userInfo: (req) => v2('/v2/social/user/info', req),
    userSearch: (req) => v2('/v2/social/user/search', req),
    userTweets: (req) => v2('/v2/social/user/tweets', req),
    tweetSearch: (req) => v2('/v2/social/tweet/search', req),
    tweetReplies: (req) => v2('/v2/social/tweet/replies', req),
    betaReplies: async (req) =>
      (await call(
        'GET',
        `/v1/beta/social/tweet/replies?${query({ tweetId: req.tweetId, cursor: req.cursor })}`,
      )) as never,
    betaSearch: async (req) =>
      (await call(
        'GET',
        `/v1/beta/social/tweet/advanced_search?${query({ query: req.query, queryType: req.queryType, cursor: req.cursor ?? '' })}`,
      )) as never,
  };
}
