import { z } from 'zod';
import { defineRoute } from './route.js';
import { BetaErrorBody, V2ErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';

/**
 * Social search (spec 2.10, 2.11, 2.13, 4.7, 4.9). v2: five POST routes in the v2 envelope; beta:
 * two GET routes in the provider's camelCase shapes. Decisions the spec leaves open (query_type
 * values, page sizes, the cost headers) are recorded in docs/decisions.md under "Social search".
 */

/** query_type of /v2/social/tweet/search and queryType of the beta search. */
export const QUERY_TYPES = ['Latest', 'Top'] as const;
export const QueryType = z.enum(QUERY_TYPES);
export type QueryType = z.infer<typeof QueryType>;

/** Page sizes: limit where the body has one; fixed sizes where it has none. */
/**
 * queryMaxDepth (parentheses nested in a search query), queryMaxTerms (its words, phrases and
 * operators) and queryMaxUrlTerms (its url: operators, each a scan of the links) bound the work of
 * one search (docs/decisions.md "Bounded queries and filters").
 */
export const SOCIAL_LIMITS = {
  defaultLimit: 20,
  maxLimit: 100,
  userSearchPage: 20,
  repliesPage: 20,
  betaPage: 20,
  maxUsernames: 100,
  maxTweetIds: 20,
  queryMaxChars: 1000,
  queryMaxDepth: 10,
  queryMaxTerms: 40,
  queryMaxUrlTerms: 4,
  topDepth: 1000,
  totalCap: 10_000,
} as const;

/** Headers every social answer carries (local decision): what it cost and what is left, in credits. */
export const CREDIT_HEADERS = { cost: 'x-credits-cost', remaining: 'x-credits-remaining' } as const;

export const SocialUser = z.object({
  user_id: z.string(),
  username: z.string(),
  display_name: z.string(),
  description: z.string(),
  followers_count: z.number().int(),
  following_count: z.number().int(),
  tweet_count: z.number().int(),
  verified: z.boolean(),
  blue_verified: z.boolean(),
  verified_type: z.string(),
  profile_image_url: z.string(),
  cover_image_url: z.string(),
  created_at: z.string(),
  location: z.string(),
  url: z.string(),
  protected: z.boolean(),
  favorites_count: z.number().int(),
  media_count: z.number().int(),
  can_dm: z.boolean(),
  is_automated: z.boolean(),
  pinned_tweet_ids: z.array(z.string()),
});
export type SocialUser = z.infer<typeof SocialUser>;

export const SocialMetrics = z.object({
  retweet_count: z.number().int(),
  favorite_count: z.number().int(),
  reply_count: z.number().int(),
  quote_count: z.number().int(),
  view_count: z.number().int(),
  bookmark_count: z.number().int(),
});

export interface SocialPost {
  id: string;
  content: string;
  author: SocialUser;
  created_at: string;
  metrics: z.infer<typeof SocialMetrics>;
  replies: SocialPost[];
  conversation_id: string;
  media_urls: string[];
  hashtags: string[];
  mentions: string[];
  urls: string[];
  url: string;
  source: string;
  lang: string;
  is_reply: boolean;
  in_reply_to_id: string | null;
  in_reply_to_user_id: string | null;
  in_reply_to_username: string | null;
  quoted_tweet: SocialPost | null;
  retweeted_tweet: SocialPost | null;
  is_limited_reply: boolean;
}

export const SocialPost: z.ZodType<SocialPost> = z
  .object({
    id: z.string(),
    content: z.string(),
    author: SocialUser,
    created_at: z.string(),
    metrics: SocialMetrics,
    get replies() {
      return z.array(SocialPost);
    },
    conversation_id: z.string(),
    media_urls: z.array(z.string()),
    hashtags: z.array(z.string()),
    mentions: z.array(z.string()),
    urls: z.array(z.string()),
    url: z.string(),
    source: z.string(),
    lang: z.string(),
    is_reply: z.boolean(),
    in_reply_to_id: z.string().nullable(),
    in_reply_to_user_id: z.string().nullable(),
    in_reply_to_username: z.string().nullable(),
    get quoted_tweet() {
      return SocialPost.nullable();
    },
    get retweeted_tweet() {
      return SocialPost.nullable();
    },
    is_limited_reply: z.boolean(),
  })
  .meta({ id: 'SocialPost' });

/**
 * A request string with no control characters but tab and line breaks: no name, id or post holds
 * them, and PostgreSQL refuses NUL in text (docs/decisions.md "Bounded queries and filters"). The
 * search query is checked by its parser instead, which answers SOCIAL_SEARCH_FAILED.
 */
const text = () =>
  z.string().regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters');
const cursor = z.string().max(2000).optional();
const unixSeconds = z.number().int().min(0).max(32503680000);
const limit = z.number().int().min(1).max(SOCIAL_LIMITS.maxLimit).optional();
/** A username as the request gives it: an optional @ is tolerated and dropped by the service. */
const username = text().min(1).max(51);

export const UserInfoRequest = z.object({ usernames: z.array(username).min(1).max(SOCIAL_LIMITS.maxUsernames) });
export const UserSearchRequest = z.object({ query: text().min(1).max(SOCIAL_LIMITS.queryMaxChars), cursor });
export const UserTweetsRequest = z
  .object({
    social_user_id: text().min(1).max(40).optional(),
    username: username.optional(),
    limit,
    cursor,
    include_replies: z.boolean().optional(),
  })
  // Exactly one of the two names the user; the service says which is missing or doubled.
  .meta({ oneOf: [{ required: ['social_user_id'] }, { required: ['username'] }] });
export const TweetSearchRequest = z.object({
  query: z.string().min(1).max(SOCIAL_LIMITS.queryMaxChars),
  query_type: QueryType.optional(),
  since_time: unixSeconds.optional(),
  until_time: unixSeconds.optional(),
  limit,
  cursor,
});
export const TweetRepliesRequest = z.object({
  tweet_ids: z.array(text().min(1).max(40)).min(1).max(SOCIAL_LIMITS.maxTweetIds),
  cursor,
  since_time: unixSeconds.optional(),
  until_time: unixSeconds.optional(),
});
export type UserInfoRequest = z.infer<typeof UserInfoRequest>;
export type UserSearchRequest = z.infer<typeof UserSearchRequest>;
export type UserTweetsRequest = z.infer<typeof UserTweetsRequest>;
export type TweetSearchRequest = z.infer<typeof TweetSearchRequest>;
export type TweetRepliesRequest = z.infer<typeof TweetRepliesRequest>;

const page = { total: z.number().int(), has_next: z.boolean(), next_cursor: z.string() };
export const UserInfoData = z.object({ total: z.number().int(), users: z.array(SocialUser) });
export const UserSearchData = z.object({ ...page, users: z.array(SocialUser) });
export const TweetsData = z.object({ ...page, tweets: z.array(SocialPost) });
export const RepliesResult = z.object({ tweet_id: z.string(), ...page, replies: z.array(SocialPost) });
export const TweetRepliesData = z.object({ results: z.array(RepliesResult) });
export type UserInfoData = z.infer<typeof UserInfoData>;
export type UserSearchData = z.infer<typeof UserSearchData>;
export type TweetsData = z.infer<typeof TweetsData>;
export type TweetRepliesData = z.infer<typeof TweetRepliesData>;

// ---- beta (spec 2.13): camelCase ----

export const BetaAuthor = z.object({
  type: z.string(),
  userName: z.string(),
  url: z.string(),
  id: z.string(),
  name: z.string(),
  isBlueVerified: z.boolean(),
  verifiedType: z.string(),
  profilePicture: z.string(),
  coverPicture: z.string(),
  description: z.string(),
  location: z.string(),
  followers: z.number().int(),
  following: z.number().int(),
  canDm: z.boolean(),
  createdAt: z.string(),
  favouritesCount: z.number().int(),
  hasCustomTimelines: z.boolean(),
  isTranslator: z.boolean(),
  mediaCount: z.number().int(),
  statusesCount: z.number().int(),
  withheldInCountries: z.array(z.string()),
  possiblySensitive: z.boolean(),
  pinnedTweetIds: z.array(z.string()),
  isAutomated: z.boolean(),
  automatedBy: z.string().nullable(),
  unavailable: z.boolean(),
  message: z.string(),
  unavailableReason: z.string(),
  profile_bio: z.object({ description: z.string() }),
});

export const BetaEntities = z.object({
  hashtags: z.array(z.object({ text: z.string(), indices: z.array(z.number().int()) })),
  urls: z.array(
    z.object({
      url: z.string(),
      expanded_url: z.string(),
      display_url: z.string(),
      indices: z.array(z.number().int()),
    }),
  ),
  user_mentions: z.array(
    z.object({ screen_name: z.string(), name: z.string(), id_str: z.string(), indices: z.array(z.number().int()) }),
  ),
});

export interface BetaPost {
  type: string;
  id: string;
  url: string;
  text: string;
  source: string;
  retweetCount: number;
  replyCount: number;
  likeCount: number;
  quoteCount: number;
  viewCount: number;
  bookmarkCount: number;
  createdAt: string;
  lang: string;
  isReply: boolean;
  inReplyToId: string | null;
  inReplyToUserId: string | null;
  inReplyToUsername: string | null;
  conversationId: string;
  displayTextRange: number[];
  isLimitedReply: boolean;
  quoted_tweet: BetaPost | null;
  retweeted_tweet: BetaPost | null;
  entities: z.infer<typeof BetaEntities>;
  author: z.infer<typeof BetaAuthor>;
}

export const BetaPost: z.ZodType<BetaPost> = z
  .object({
    type: z.string(),
    id: z.string(),
    url: z.string(),
    text: z.string(),
    source: z.string(),
    retweetCount: z.number().int(),
    replyCount: z.number().int(),
    likeCount: z.number().int(),
    quoteCount: z.number().int(),
    viewCount: z.number().int(),
    bookmarkCount: z.number().int(),
    createdAt: z.string(),
    lang: z.string(),
    isReply: z.boolean(),
    inReplyToId: z.string().nullable(),
    inReplyToUserId: z.string().nullable(),
    inReplyToUsername: z.string().nullable(),
    conversationId: z.string(),
    displayTextRange: z.array(z.number().int()),
    isLimitedReply: z.boolean(),
    get quoted_tweet() {
      return BetaPost.nullable();
    },
    get retweeted_tweet() {
      return BetaPost.nullable();
    },
    entities: BetaEntities,
    author: BetaAuthor,
  })
  .meta({ id: 'BetaPost' });

export const BetaRepliesQuery = z.object({ tweetId: text().min(1).max(40), cursor: z.string().max(2000).optional() });
export const BetaSearchQuery = z.object({
  query: z.string().min(1).max(SOCIAL_LIMITS.queryMaxChars),
  queryType: QueryType.default('Latest'),
  cursor: z.string().max(2000).optional(),
});
export const BetaRepliesPage = z.object({
  tweets: z.array(BetaPost),
  has_next_page: z.boolean(),
  next_cursor: z.string(),
  status: z.string(),
  msg: z.string(),
});
export const BetaSearchPage = z.object({
  tweets: z.array(BetaPost),
  has_next_page: z.boolean(),
  next_cursor: z.string(),
});
export type BetaRepliesPage = z.infer<typeof BetaRepliesPage>;
export type BetaSearchPage = z.infer<typeof BetaSearchPage>;

// ---- routes ----

const v2Errors = {
  400: V2ErrorBody,
  401: V2ErrorBody,
  402: V2ErrorBody,
  403: V2ErrorBody,
  429: V2ErrorBody,
  500: V2ErrorBody,
  502: V2ErrorBody,
} as const;
const betaErrors = {
  400: BetaErrorBody,
  401: BetaErrorBody,
  402: BetaErrorBody,
  403: BetaErrorBody,
  429: BetaErrorBody,
  500: BetaErrorBody,
  502: BetaErrorBody,
} as const;
const v2 = { auth: 'bearer-key', family: 'v2', tag: 'social' } as const;
const beta = { auth: 'bearer-key', family: 'beta', tag: 'beta social' } as const;

export const userInfo = defineRoute({
  ...v2,
  id: 'social.userInfo',
  method: 'POST',
  path: '/v2/social/user/info',
  summary: 'Users by username (1 credit per user returned)',
  body: UserInfoRequest,
  responses: { 200: v2Envelope(UserInfoData), ...v2Errors },
});
export const userSearch = defineRoute({
  ...v2,
  id: 'social.userSearch',
  method: 'POST',
  path: '/v2/social/user/search',
  summary: 'Users whose name or bio matches (1 credit per user returned)',
  body: UserSearchRequest,
  responses: { 200: v2Envelope(UserSearchData), ...v2Errors },
});
export const userTweets = defineRoute({
  ...v2,
  id: 'social.userTweets',
  method: 'POST',
  path: '/v2/social/user/tweets',
  summary: "A user's posts, newest first (1 credit per post returned)",
  body: UserTweetsRequest,
  responses: { 200: v2Envelope(TweetsData), ...v2Errors },
});
export const tweetSearch = defineRoute({
  ...v2,
  id: 'social.tweetSearch',
  method: 'POST',
  path: '/v2/social/tweet/search',
  summary: 'Posts matching an advanced search query (1 credit per post returned)',
  body: TweetSearchRequest,
  responses: { 200: v2Envelope(TweetsData), ...v2Errors },
});
export const tweetReplies = defineRoute({
  ...v2,
  id: 'social.tweetReplies',
  method: 'POST',
  path: '/v2/social/tweet/replies',
  summary: 'Direct replies to posts, oldest first (1 credit per reply returned)',
  body: TweetRepliesRequest,
  responses: { 200: v2Envelope(TweetRepliesData), ...v2Errors },
});
export const betaReplies = defineRoute({
  ...beta,
  id: 'beta.social.replies',
  method: 'GET',
  path: '/v1/beta/social/tweet/replies',
  summary: 'Direct replies to a post (beta shape)',
  query: BetaRepliesQuery,
  responses: { 200: BetaRepliesPage, ...betaErrors },
});
export const betaSearch = defineRoute({
  ...beta,
  id: 'beta.social.search',
  method: 'GET',
  path: '/v1/beta/social/tweet/advanced_search',
  summary: 'Advanced search (beta shape)',
  query: BetaSearchQuery,
  responses: { 200: BetaSearchPage, ...betaErrors },
});

export const socialRoutes = [
  userInfo,
  userSearch,
  userTweets,
  tweetSearch,
  tweetReplies,
  betaReplies,
  betaSearch,
] as const;
