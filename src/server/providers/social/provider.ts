import type { BetaRepliesPage, BetaSearchPage } from '../../../contract/social-beta.js';
import type {
  TweetRepliesData,
  TweetRepliesRequest,
  TweetSearchRequest,
  TweetsData,
  UserInfoData,
  UserInfoRequest,
  UserSearchData,
  UserSearchRequest,
  UserTweetsRequest,
  QueryType,
} from '../../../contract/social.js';

/**
 * Where social data comes from: the local store (seeded, importable) or a compatible upstream
 * provider. `budget` is the most results the caller's credits can pay for; a provider never returns
 * more than that in one answer where it can choose (the local one), so credits are never overspent.
 */
export interface SocialProvider {
  readonly kind: 'local' | 'upstream';
  userInfo(req: UserInfoRequest, budget: number): Promise<UserInfoData>;
  userSearch(req: UserSearchRequest, budget: number): Promise<UserSearchData>;
  userTweets(req: UserTweetsRequest, budget: number): Promise<TweetsData>;
  tweetSearch(req: TweetSearchRequest, budget: number): Promise<TweetsData>;
  tweetReplies(req: TweetRepliesRequest, budget: number): Promise<TweetRepliesData>;
  betaReplies(req: { tweetId: string; cursor?: string }, budget: number): Promise<BetaRepliesPage>;
  betaSearch(req: { query: string; queryType: QueryType; cursor?: string }, budget: number): Promise<BetaSearchPage>;
}
