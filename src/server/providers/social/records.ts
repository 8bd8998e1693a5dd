import type { NewSocialPost, SocialUserRow } from '../../store/social/social.repo.js';
import { idKey } from '../../store/social/compile.js';

/** A post as the seed and the importer describe it, before the store's derived columns. */
export interface PostInput {
  id: string;
  author_id: string;
  content: string;
  created_ts: number;
  lang: string;
  source: string;
  conversation_id?: string | null;
  in_reply_to_id?: string | null;
  in_reply_to_user_id?: string | null;
  in_reply_to_username?: string | null;
  quoted_id?: string | null;
  retweeted_id?: string | null;
  is_limited_reply?: boolean;
  media_urls?: string[];
  urls?: string[];
  hashtags?: string[];
  mentions?: string[];
  metrics: {
    retweet_count: number;
    favorite_count: number;
    reply_count: number;
    quote_count: number;
    view_count: number;
    bookmark_count: number;
  };
}

/**
 * The Top order's engagement score: likes, plus reposts and quotes twice (they spread a post), plus
 * replies. Documented in docs/decisions.md; stored so Top pages on an index.
 */
export function engagementScore(m: PostInput['metrics']): number {
  return m.favorite_count + 2 * m.retweet_count + 2 * m.quote_count + m.reply_count;
}

const uniq = (values: string[]) => [...new Set(values)];

/** Hashtags, cashtags and mentions written in the text, for posts that do not list their own. */
export function termsInText(text: string): {
  hashtags: string[];
  cashtags: string[];
  mentions: string[];
  urls: string[];
} {
  return {
    hashtags: uniq([...text.matchAll(/(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]+)/gu)].map((m) => m[1])),
    cashtags: uniq([...text.matchAll(/(?:^|[^\w$])\$([A-Za-z][A-Za-z0-9_.]{0,11})\b/g)].map((m) => m[1])),
    mentions: uniq([...text.matchAll(/(?:^|[^\w@])@(\w{1,50})/g)].map((m) => m[1])),
    urls: uniq([...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0])),
  };
}

const VIDEO = /\.(mp4|m3u8|mov|webm)(\?|$)/i;

/** The store's row for a post: derived flags, id_key, score and the searchable terms. */
export function postRecord(p: PostInput): NewSocialPost {
  const found = termsInText(p.content);
  const hashtags = uniq(p.hashtags ?? found.hashtags);
  const mentions = uniq((p.mentions ?? found.mentions).map((m) => m.replace(/^@/, '')));
  const urls = uniq(p.urls ?? found.urls);
  const media = p.media_urls ?? [];
  const terms = [
    ...hashtags.map((v) => ({ kind: 'hashtag', value: v.toLowerCase() })),
    ...found.cashtags.map((v) => ({ kind: 'cashtag', value: v.toLowerCase() })),
    ...mentions.map((v) => ({ kind: 'mention', value: v.toLowerCase() })),
    ...urls.map((v) => ({ kind: 'url', value: v.toLowerCase() })),
  ];
  return {
    id: p.id,
    id_key: idKey(p.id),
    author_id: p.author_id,
    content: p.content,
    created_at: new Date(p.created_ts * 1000).toISOString(),
    created_ts: p.created_ts,
    lang: p.lang.toLowerCase(),
    source: p.source,
    conversation_id: p.conversation_id ?? p.id,
    in_reply_to_id: p.in_reply_to_id ?? null,
    in_reply_to_user_id: p.in_reply_to_user_id ?? null,
    in_reply_to_username: p.in_reply_to_username ? p.in_reply_to_username.toLowerCase() : null,
    quoted_id: p.quoted_id ?? null,
    retweeted_id: p.retweeted_id ?? null,
    is_reply: p.in_reply_to_id ? 1 : 0,
    is_limited_reply: p.is_limited_reply ? 1 : 0,
    has_images: media.some((u) => !VIDEO.test(u)) ? 1 : 0,
    has_videos: media.some((u) => VIDEO.test(u)) ? 1 : 0,
    has_links: urls.length > 0 ? 1 : 0,
    media_urls: JSON.stringify(media),
    urls: JSON.stringify(urls),
    hashtags: JSON.stringify(hashtags),
    mentions: JSON.stringify(mentions),
    ...p.metrics,
    score: engagementScore(p.metrics),
    terms,
  };
}

export type { SocialUserRow };
