import type { ColumnType, Generated } from 'kysely';

/**
 * The social store (issue 13): users, posts and the terms (hashtags, cashtags, mentions, URLs) the
 * advanced search looks up. Booleans are 0/1 integers and times ISO text plus Unix seconds, as in
 * every other table; lists a post only displays are JSON text.
 */
export interface SocialUsersTable {
  id: string;
  /** Without @, as given; username_lc is the lookup key (usernames are case-insensitive). */
  username: string;
  username_lc: string;
  display_name: string;
  description: string;
  followers_count: number;
  following_count: number;
  tweet_count: number;
  verified: number;
  blue_verified: number;
  verified_type: string;
  profile_image_url: string;
  cover_image_url: string;
  created_at: string;
  location: string;
  url: string;
  protected: number;
  favorites_count: number;
  media_count: number;
  can_dm: number;
  is_automated: number;
  /** JSON string array. */
  pinned_tweet_ids: string;
}

export interface SocialPostsTable {
  /** The full-text index's row number (FTS5 content_rowid); ids are strings of digits. */
  rowid_: Generated<number>;
  id: string;
  /** id left-padded with zeros to 20 digits: since_id/max_id and keysets compare it as text. */
  id_key: string;
  author_id: string;
  content: string;
  created_at: string;
  created_ts: number;
  lang: string;
  source: string;
  conversation_id: string;
  in_reply_to_id: string | null;
  in_reply_to_user_id: string | null;
  in_reply_to_username: string | null;
  quoted_id: string | null;
  retweeted_id: string | null;
  is_reply: number;
  is_limited_reply: number;
  has_images: number;
  has_videos: number;
  has_links: number;
  /** JSON string arrays. */
  media_urls: string;
  urls: string;
  hashtags: string;
  mentions: string;
  retweet_count: number;
  favorite_count: number;
  reply_count: number;
  quote_count: number;
  view_count: number;
  bookmark_count: number;
  /** The Top order's engagement score (see services/social/order.ts), kept with the metrics. */
  score: number;
  /** Hashtags, cashtags and mentions as full-text index tokens (dialect/social-search.ts; migration 0017). */
  search_terms: ColumnType<string, string | undefined, string>;
  /** The content segmented into words when it is in a script without spaces (migration 0030); else null. */
  search_content: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One searchable term of a post: kind hashtag | cashtag | mention | url, value lowercased. */
export interface SocialTermsTable {
  post_id: string;
  kind: string;
  value: string;
}

export interface SocialTables {
  social_users: SocialUsersTable;
  social_posts: SocialPostsTable;
  social_terms: SocialTermsTable;
}
