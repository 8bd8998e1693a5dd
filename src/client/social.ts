import * as c from '../contract/social.js';
import type * as beta from '../contract/social-beta.js';
import * as routes from '../contract/social-routes.js';
import type { RouteDef } from '../contract/route.js';
import type { Transport } from './transport.js';

/** What an answer cost and left (spec 8), and the rate-limit state of a limited account. */
export interface SocialBilling {
  cost: number | null;
  remaining: number | null;
  rateLimit: { limit: number; remaining: number; reset: number } | null;
}

export interface Billed<T> {
  data: T;
  billing: SocialBilling;
}

const num = (v: string | string[] | undefined) => (v === undefined ? null : Number(Array.isArray(v) ? v[0] : v));

/**
 * One social call. No automatic retry: a 429 or 402 reaches the caller at once (the CLI exits 5, or
 * with --retry waits out the Retry-After itself), since the free-plan windows are minutes long.
 */
async function billedCall<T>(
  t: Transport,
  route: RouteDef,
  input: { body?: unknown; query?: Record<string, string | undefined> },
): Promise<Billed<T>> {
  const res = await t.send({
    method: route.method,
    path: route.path,
    auth: route.auth,
    service: 'platform',
    body: input.body,
    query: input.query,
    retries: 0,
  });
  const parsed = t.parse<Record<string, unknown>>(res);
  const data = (route.family === 'v2' ? parsed.data : parsed) as T;
  const h = res.headers;
  const limit = num(h['x-ratelimit-limit']);
  return {
    data,
    billing: {
      cost: num(h[c.CREDIT_HEADERS.cost]),
      remaining: num(h[c.CREDIT_HEADERS.remaining]),
      rateLimit:
        limit === null
          ? null
          : { limit, remaining: num(h['x-ratelimit-remaining']) ?? 0, reset: num(h['x-ratelimit-reset']) ?? 0 },
    },
  };
}

export const socialClient = (t: Transport) => ({
  userInfo: (body: c.UserInfoRequest) => billedCall<c.UserInfoData>(t, routes.userInfo, { body }),
  userSearch: (body: c.UserSearchRequest) => billedCall<c.UserSearchData>(t, routes.userSearch, { body }),
  userTweets: (body: c.UserTweetsRequest) => billedCall<c.TweetsData>(t, routes.userTweets, { body }),
  tweetSearch: (body: c.TweetSearchRequest) => billedCall<c.TweetsData>(t, routes.tweetSearch, { body }),
  tweetReplies: (body: c.TweetRepliesRequest) => billedCall<c.TweetRepliesData>(t, routes.tweetReplies, { body }),
  betaReplies: (query: { tweetId: string; cursor?: string }) =>
    billedCall<beta.BetaRepliesPage>(t, routes.betaReplies, { query }),
  betaSearch: (query: { query: string; queryType?: c.QueryType; cursor?: string }) =>
    billedCall<beta.BetaSearchPage>(t, routes.betaSearch, { query }),
});
