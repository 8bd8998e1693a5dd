import type { BetaPost } from '../../../contract/social-beta.js';
import type { SocialPost, SocialUser } from '../../../contract/social.js';
import type { SocialPostRow, SocialUserRow } from '../../store/social/social.repo.js';

/** The address permalinks and profile URLs use (the local platform's own, neutral host). */
export const SOCIAL_WEB = 'https://social.example.com';

const json = (text: string): string[] => JSON.parse(text) as string[];

export function userOf(u: SocialUserRow): SocialUser {
  return {
    user_id: u.id,
    username: u.username,
    display_name: u.display_name,
    description: u.description,
    followers_count: u.followers_count,
    following_count: u.following_count,
    tweet_count: u.tweet_count,
    verified: u.verified === 1,
    blue_verified: u.blue_verified === 1,
    verified_type: u.verified_type,
    profile_image_url: u.profile_image_url,
    cover_image_url: u.cover_image_url,
    created_at: u.created_at,
    location: u.location,
    url: u.url,
    protected: u.protected === 1,
    favorites_count: u.favorites_count,
    media_count: u.media_count,
    can_dm: u.can_dm === 1,
    is_automated: u.is_automated === 1,
    pinned_tweet_ids: json(u.pinned_tweet_ids),
  };
}

/** A user the store lacks (an imported post whose author was not imported). */
function unknownUser(id: string): SocialUserRow {
  return {
    id,
    username: `user${id}`,
    username_lc: `user${id}`,
    display_name: '',
    description: '',
    followers_count: 0,
    following_count: 0,
    tweet_count: 0,
    verified: 0,
    blue_verified: 0,
    verified_type: 'none',
    profile_image_url: '',
    cover_image_url: '',
    created_at: '',
    location: '',
    url: '',
    protected: 0,
    favorites_count: 0,
    media_count: 0,
    can_dm: 0,
    is_automated: 0,
    pinned_tweet_ids: '[]',
  };
}

/** Rows of posts with their authors and embedded posts, as the hydrator loads them. */
export interface PostGraph {
  users: Map<string, SocialUserRow>;
  posts: Map<string, SocialPostRow>;
}

/** How deep quoted_tweet / retweeted_tweet nest (a quote of a quote of a quote stops here). */
export const EMBED_DEPTH = 2;

export function postOf(row: SocialPostRow, g: PostGraph, depth = 0): SocialPost {
  const author = g.users.get(row.author_id) ?? unknownUser(row.author_id);
  const embed = (id: string | null) => {
    if (!id || depth >= EMBED_DEPTH) return null;
    const inner = g.posts.get(id);
    return inner ? postOf(inner, g, depth + 1) : null;
  };
  return {
    id: row.id,
    content: row.content,
    author: userOf(author),
    created_at: row.created_at,
    metrics: {
      retweet_count: row.retweet_count,
      favorite_count: row.favorite_count,
      reply_count: row.reply_count,
      quote_count: row.quote_count,
      view_count: row.view_count,
      bookmark_count: row.bookmark_count,
    },
    replies: [],
    conversation_id: row.conversation_id,
    media_urls: json(row.media_urls),
    hashtags: json(row.hashtags),
    mentions: json(row.mentions),
    urls: json(row.urls),
    url: `${SOCIAL_WEB}/${author.username}/status/${row.id}`,
    source: row.source,
    lang: row.lang,
    is_reply: row.is_reply === 1,
    in_reply_to_id: row.in_reply_to_id,
    in_reply_to_user_id: row.in_reply_to_user_id,
    in_reply_to_username: row.in_reply_to_username
      ? (g.users.get(row.in_reply_to_user_id ?? '')?.username ?? row.in_reply_to_username)
      : null,
    quoted_tweet: embed(row.quoted_id),
    retweeted_tweet: embed(row.retweeted_id),
    is_limited_reply: row.is_limited_reply === 1,
  };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The beta provider's date text: "Tue Nov 04 09:30:00 +0000 2025". */
export function betaDate(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

function indicesOf(text: string, needle: string): number[] {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  return at < 0 ? [] : [at, at + needle.length];
}

/** The beta camelCase shape (spec 2.13) of a v2 post. */
export function betaPostOf(p: SocialPost): BetaPost {
  const a = p.author;
  return {
    type: 'tweet',
    id: p.id,
    url: p.url,
    text: p.content,
    source: p.source,
    retweetCount: p.metrics.retweet_count,
    replyCount: p.metrics.reply_count,
    likeCount: p.metrics.favorite_count,
    quoteCount: p.metrics.quote_count,
    viewCount: p.metrics.view_count,
    bookmarkCount: p.metrics.bookmark_count,
    createdAt: betaDate(p.created_at),
    lang: p.lang,
    isReply: p.is_reply,
    inReplyToId: p.in_reply_to_id,
    inReplyToUserId: p.in_reply_to_user_id,
    inReplyToUsername: p.in_reply_to_username,
    conversationId: p.conversation_id,
    displayTextRange: [0, [...p.content].length],
    isLimitedReply: p.is_limited_reply,
    quoted_tweet: p.quoted_tweet ? betaPostOf(p.quoted_tweet) : null,
    retweeted_tweet: p.retweeted_tweet ? betaPostOf(p.retweeted_tweet) : null,
    entities: {
      hashtags: p.hashtags.map((h) => ({ text: h, indices: indicesOf(p.content, '#' + h) })),
      urls: p.urls.map((u) => ({
        url: u,
        expanded_url: u,
        display_url: u.replace(/^https?:\/\//, ''),
        indices: indicesOf(p.content, u),
      })),
      user_mentions: p.mentions.map((m) => ({
        screen_name: m,
        name: m,
        id_str: '',
        indices: indicesOf(p.content, '@' + m),
      })),
    },
    author: {
      type: 'user',
      userName: a.username,
      url: `${SOCIAL_WEB}/${a.username}`,
      id: a.user_id,
      name: a.display_name,
      isBlueVerified: a.blue_verified,
      verifiedType: a.verified_type,
      profilePicture: a.profile_image_url,
      coverPicture: a.cover_image_url,
      description: a.description,
      location: a.location,
      followers: a.followers_count,
      following: a.following_count,
      canDm: a.can_dm,
      createdAt: betaDate(a.created_at),
      favouritesCount: a.favorites_count,
      hasCustomTimelines: false,
      isTranslator: false,
      mediaCount: a.media_count,
      statusesCount: a.tweet_count,
      withheldInCountries: [],
      possiblySensitive: false,
      pinnedTweetIds: a.pinned_tweet_ids,
      isAutomated: a.is_automated,
      automatedBy: null,
      unavailable: false,
      message: '',
      unavailableReason: '',
      profile_bio: { description: a.description },
    },
  };
}
