import { z } from 'zod';
import { NOT_BLANK } from './fields.js';

/**
 * Social search (spec 2.10, 2.11, 2.13, 4.7, 4.9): the limits and the v2 shapes here; the beta shapes in
 * social-beta.ts, the routes (five v2 POST routes, two beta GET routes) in social-routes.ts. Decisions
 * the spec leaves open (query_type values, page sizes, the cost headers) are recorded in docs/decisions.md under "Social search".
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
export const textWithoutControls = () =>
  z.string().regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters');
const cursor = z.string().max(2000).optional();
const unixSeconds = z.number().int().min(0).max(32503680000);
const limit = z.number().int().min(1).max(SOCIAL_LIMITS.maxLimit).optional();
/** A username as the request gives it: an optional @ is tolerated and dropped by the service. */
const username = textWithoutControls().min(1).max(51);

export const UserInfoRequest = z.object({ usernames: z.array(username).min(1).max(SOCIAL_LIMITS.maxUsernames) });
export const UserSearchRequest = z.object({
  query: textWithoutControls().min(1).max(SOCIAL_LIMITS.queryMaxChars),
  cursor,
});
export const UserTweetsRequest = z
  .object({
    social_user_id: textWithoutControls().min(1).max(40).optional(),
    username: username.optional(),
    limit,
    cursor,
    include_replies: z.boolean().optional(),
  })
  // Exactly one of the two names the user; the service says which is missing or doubled.
  .meta({ oneOf: [{ required: ['social_user_id'] }, { required: ['username'] }] });
export const TweetSearchRequest = z.object({
  query: z.string().min(1).max(SOCIAL_LIMITS.queryMaxChars).meta(NOT_BLANK),
  query_type: QueryType.optional(),
  since_time: unixSeconds.optional(),
  until_time: unixSeconds.optional(),
  limit,
  cursor,
});
export const TweetRepliesRequest = z.object({
  tweet_ids: z.array(textWithoutControls().min(1).max(40)).min(1).max(SOCIAL_LIMITS.maxTweetIds),
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
