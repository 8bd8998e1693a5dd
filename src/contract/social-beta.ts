import { z } from 'zod';
import { QueryType, SOCIAL_LIMITS, textWithoutControls } from './social.js';

/** The beta social search (spec 2.13): the provider's own camelCase shapes. */

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

export const BetaRepliesQuery = z.object({
  tweetId: textWithoutControls().min(1).max(40),
  cursor: z.string().max(2000).optional(),
});
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
