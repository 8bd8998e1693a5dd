import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import {
  SOCIAL_LIMITS,
  CREDIT_HEADERS,
  type QueryType,
  type TweetRepliesData,
  type TweetRepliesRequest,
  type TweetSearchRequest,
  type TweetsData,
  type UserInfoData,
  type UserInfoRequest,
  type UserSearchData,
  type UserSearchRequest,
  type UserTweetsRequest,
} from '../../contract/social.js';
import { type BetaRepliesPage, type BetaSearchPage } from '../../contract/social-beta.js';
import { closeSocialCharge, openSocialCharge } from '../auth/social-billing.js';
import type { SocialProvider } from '../providers/social/provider.js';
import { localSocialProvider } from '../providers/social/local.js';
import { upstreamSocialProvider } from '../providers/social/upstream.js';

/** A social answer and the headers that say what it cost, what is left and the rate-limit state. */
export interface Billed<T> {
  data: T;
  headers: Record<string, string>;
}

const providers = new WeakMap<AppContext, SocialProvider>();

/** The configured provider: upstream when `facet serve --social-upstream` is set, else the local store. */
function providerOf(ctx: AppContext): SocialProvider {
  let p = providers.get(ctx);
  if (!p) {
    p = ctx.config.socialUpstream
      ? upstreamSocialProvider(ctx.config.socialUpstream, ctx.fetchPolicy)
      : localSocialProvider(ctx.db, ctx.tokenSecret);
    providers.set(ctx, p);
  }
  return p;
}

/**
 * Every social operation: check and reserve (402/429 before any work), run, charge the real count
 * (spec 8: 1 credit per result; none for an empty answer), give back the rest. A failure gives the
 * whole reservation back.
 */
async function billed<T>(
  ctx: AppContext,
  auth: AuthContext,
  most: number,
  run: (p: SocialProvider, budget: number) => Promise<T>,
  count: (data: T) => number,
): Promise<Billed<T>> {
  const charge = await openSocialCharge(ctx.db, auth.user, most, ctx.now());
  let data: T;
  try {
    data = await run(providerOf(ctx), charge.reserved);
  } catch (err) {
    await closeSocialCharge(ctx.db, auth.user.id, charge, 0);
    throw err;
  }
  const cost = count(data);
  const left = await closeSocialCharge(ctx.db, auth.user.id, charge, cost);
  return {
    data,
    headers: { ...charge.headers, [CREDIT_HEADERS.cost]: String(cost), [CREDIT_HEADERS.remaining]: String(left) },
  };
}

const limitOf = (limit: number | undefined) => limit ?? SOCIAL_LIMITS.defaultLimit;

export const userInfo = (ctx: AppContext, auth: AuthContext, req: UserInfoRequest): Promise<Billed<UserInfoData>> =>
  billed(
    ctx,
    auth,
    req.usernames.length,
    (p, b) => p.userInfo(req, b),
    (d) => d.users.length,
  );

export const userSearch = (
  ctx: AppContext,
  auth: AuthContext,
  req: UserSearchRequest,
): Promise<Billed<UserSearchData>> =>
  billed(
    ctx,
    auth,
    SOCIAL_LIMITS.userSearchPage,
    (p, b) => p.userSearch(req, b),
    (d) => d.users.length,
  );

export const userTweets = (ctx: AppContext, auth: AuthContext, req: UserTweetsRequest): Promise<Billed<TweetsData>> =>
  billed(
    ctx,
    auth,
    limitOf(req.limit),
    (p, b) => p.userTweets(req, b),
    (d) => d.tweets.length,
  );

export const tweetSearch = (ctx: AppContext, auth: AuthContext, req: TweetSearchRequest): Promise<Billed<TweetsData>> =>
  billed(
    ctx,
    auth,
    limitOf(req.limit),
    (p, b) => p.tweetSearch(req, b),
    (d) => d.tweets.length,
  );

export const tweetReplies = (
  ctx: AppContext,
  auth: AuthContext,
  req: TweetRepliesRequest,
): Promise<Billed<TweetRepliesData>> =>
  billed(
    ctx,
    auth,
    new Set(req.tweet_ids).size * SOCIAL_LIMITS.repliesPage,
    (p, b) => p.tweetReplies(req, b),
    (d) => d.results.reduce((n, r) => n + r.replies.length, 0),
  );

export const betaReplies = (
  ctx: AppContext,
  auth: AuthContext,
  req: { tweetId: string; cursor?: string },
): Promise<Billed<BetaRepliesPage>> =>
  billed(
    ctx,
    auth,
    SOCIAL_LIMITS.betaPage,
    (p, b) => p.betaReplies(req, b),
    (d) => d.tweets.length,
  );

export const betaSearch = (
  ctx: AppContext,
  auth: AuthContext,
  req: { query: string; queryType: QueryType; cursor?: string },
): Promise<Billed<BetaSearchPage>> =>
  billed(
    ctx,
    auth,
    SOCIAL_LIMITS.betaPage,
    (p, b) => p.betaSearch(req, b),
    (d) => d.tweets.length,
  );
