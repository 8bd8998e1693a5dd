import { defineRoute } from './route.js';
import { BetaErrorBody, V2ErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';
import {
  TweetRepliesData,
  TweetRepliesRequest,
  TweetSearchRequest,
  TweetsData,
  UserInfoData,
  UserInfoRequest,
  UserSearchData,
  UserSearchRequest,
  UserTweetsRequest,
} from './social.js';
import { BetaRepliesPage, BetaRepliesQuery, BetaSearchPage, BetaSearchQuery } from './social-beta.js';

/** The social search routes: five POST routes in the v2 envelope, two GET routes in the beta shapes. */

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
