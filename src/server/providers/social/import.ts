import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import { upsertPosts, upsertUsers, type NewSocialPost, type SocialUserRow } from '../../store/social/social.repo.js';
import { postRecord } from './records.js';

/** A line of an import file the platform cannot take; the whole import stops before writing. */
export class ImportError extends Error {}

type Obj = Record<string, unknown>;
/** The value when it is an object (a record's nested user, post or entity), else null. */
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null ? (v as Obj) : null);
const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.floor(v)) : 0);
const flag = (v: unknown): number => (v === true ? 1 : 0);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
/** A list the record gives, or undefined so the post's text supplies it. */
const listed = (v: unknown): string[] | undefined => (Array.isArray(v) ? strings(v) : undefined);
/** The beta shape's entity list (urls, hashtags, mentions) as the text each entity names, or undefined. */
const entityTexts = (v: unknown, text: (e: Obj) => unknown): string[] | undefined =>
  Array.isArray(v) ? v.map((e: unknown) => str(text(obj(e) ?? {}))).filter(Boolean) : undefined;

function digitsId(v: unknown, what: string): string {
  const id = str(v);
  if (!/^\d{1,20}$/.test(id)) throw new ImportError(`${what} must be a string of digits, got ${JSON.stringify(v)}`);
  return id;
}

function seconds(v: unknown, what: string): number {
  const ms = typeof v === 'number' ? v * 1000 : Date.parse(str(v));
  if (!Number.isFinite(ms)) throw new ImportError(`${what} is not a time: ${JSON.stringify(v)}`);
  return Math.floor(ms / 1000);
}

const isBetaUser = (o: Obj) => typeof o.userName === 'string';
const isV2User = (o: Obj) => typeof o.username === 'string' && o.user_id !== undefined;
const isBetaPost = (o: Obj) => typeof o.text === 'string' && o.id !== undefined;
const isV2Post = (o: Obj) => typeof o.content === 'string' && o.id !== undefined;

function userRow(o: Obj): SocialUserRow {
  const beta = isBetaUser(o);
  const username = str(beta ? o.userName : o.username).replace(/^@/, '');
  if (!/^\w{1,50}$/.test(username))
    throw new ImportError(`username ${JSON.stringify(username)} is not 1-50 letters, digits or _`);
  return {
    id: digitsId(beta ? o.id : o.user_id, 'user id'),
    username,
    username_lc: username.toLowerCase(),
    display_name: str(beta ? o.name : o.display_name),
    description: str(o.description),
    followers_count: int(beta ? o.followers : o.followers_count),
    following_count: int(beta ? o.following : o.following_count),
    tweet_count: int(beta ? o.statusesCount : o.tweet_count),
    verified: flag(beta ? o.verifiedType && o.verifiedType !== 'none' : o.verified),
    blue_verified: flag(beta ? o.isBlueVerified : o.blue_verified),
    verified_type: str(beta ? o.verifiedType : o.verified_type, 'none') || 'none',
    profile_image_url: str(beta ? o.profilePicture : o.profile_image_url),
    cover_image_url: str(beta ? o.coverPicture : o.cover_image_url),
    created_at:
      o.createdAt || o.created_at
        ? new Date(seconds(beta ? o.createdAt : o.created_at, 'user created_at') * 1000).toISOString()
        : '',
    location: str(o.location),
    url: str(o.url),
    protected: flag(o.protected),
    favorites_count: int(beta ? o.favouritesCount : o.favorites_count),
    media_count: int(beta ? o.mediaCount : o.media_count),
    can_dm: flag(beta ? o.canDm : o.can_dm),
    is_automated: flag(beta ? o.isAutomated : o.is_automated),
    pinned_tweet_ids: JSON.stringify(strings(beta ? o.pinnedTweetIds : o.pinned_tweet_ids)),
  };
}

/** A post and everything it carries (author, quoted and reposted posts, replies) as rows. */
function collectPost(o: Obj, users: Map<string, SocialUserRow>, posts: Map<string, NewSocialPost>): void {
  const beta = isBetaPost(o) && !isV2Post(o);
  const authorRecord = obj(o.author);
  if (!authorRecord) throw new ImportError('a post needs its author object');
  const author = userRow(authorRecord);
  users.set(author.id, author);
  const quoted = obj(o.quoted_tweet);
  const reposted = obj(o.retweeted_tweet);
  if (quoted) collectPost(quoted, users, posts);
  if (reposted) collectPost(reposted, users, posts);
  const id = digitsId(o.id, 'post id');
  const replyTo = beta ? o.inReplyToId : o.in_reply_to_id;
  const metrics = obj(o.metrics);
  const m = beta
    ? {
        retweet_count: int(o.retweetCount),
        favorite_count: int(o.likeCount),
        reply_count: int(o.replyCount),
        quote_count: int(o.quoteCount),
        view_count: int(o.viewCount),
        bookmark_count: int(o.bookmarkCount),
      }
    : {
        retweet_count: int(metrics?.retweet_count),
        favorite_count: int(metrics?.favorite_count),
        reply_count: int(metrics?.reply_count),
        quote_count: int(metrics?.quote_count),
        view_count: int(metrics?.view_count),
        bookmark_count: int(metrics?.bookmark_count),
      };
  const entities = obj(o.entities);
  posts.set(
    id,
    postRecord({
      id,
      author_id: author.id,
      content: str(beta ? o.text : o.content),
      created_ts: seconds(beta ? o.createdAt : o.created_at, `created_at of post ${id}`),
      lang: str(o.lang, 'und') || 'und',
      source: str(o.source),
      conversation_id: str(beta ? o.conversationId : o.conversation_id) || id,
      in_reply_to_id: replyTo ? digitsId(replyTo, 'in_reply_to_id') : null,
      in_reply_to_user_id: str(beta ? o.inReplyToUserId : o.in_reply_to_user_id) || null,
      in_reply_to_username: str(beta ? o.inReplyToUsername : o.in_reply_to_username) || null,
      quoted_id: quoted ? digitsId(quoted.id, 'quoted post id') : null,
      retweeted_id: reposted ? digitsId(reposted.id, 'reposted post id') : null,
      is_limited_reply: (beta ? o.isLimitedReply : o.is_limited_reply) === true,
      media_urls: beta ? undefined : listed(o.media_urls),
      urls: beta ? entityTexts(entities?.urls, (u) => u.expanded_url ?? u.url) : listed(o.urls),
      hashtags: beta ? entityTexts(entities?.hashtags, (h) => h.text) : listed(o.hashtags),
      mentions: beta ? entityTexts(entities?.user_mentions, (u) => u.screen_name) : listed(o.mentions),
      metrics: m,
    }),
  );
  if (!beta && Array.isArray(o.replies))
    for (const r of o.replies as unknown[]) {
      const reply = obj(r);
      if (reply) collectPost(reply, users, posts);
    }
}

export interface ImportResult {
  users: number;
  posts: number;
}

/** One line of an import file into the maps (a later line with the same id wins). */
function collectLine(line: string, users: Map<string, SocialUserRow>, posts: Map<string, NewSocialPost>): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new ImportError('not JSON');
  }
  const o = Array.isArray(parsed) ? null : obj(parsed);
  if (!o) throw new ImportError('a line holds one JSON object: a user or a post');
  if (isV2Post(o) || isBetaPost(o)) collectPost(o, users, posts);
  else if (isV2User(o) || isBetaUser(o)) {
    const u = userRow(o);
    users.set(u.id, u);
  } else
    throw new ImportError(
      'neither a user (username + user_id, or userName + id) nor a post (id + content, or id + text)',
    );
}

/** Lines per write: bounded memory for files of millions of posts. */
const BATCH_LINES = 2000;

/**
 * Reads JSON Lines of users and posts, in the v2 shape (spec 2.10, 2.11) or the beta camelCase
 * shape (spec 2.13), and upserts them by id: a re-import updates. All in one transaction, written
 * batch by batch as the lines arrive: one bad line rolls the whole import back, naming the line.
 */
export async function importSocial(
  db: Kysely<Database>,
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<ImportResult> {
  const result = { users: 0, posts: 0 };
  // Listen before the first await: a readline interface reads on its own, and lines it emits
  // before anyone iterates (while the transaction begins) would be lost, its end with them.
  const iterator = Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : lines[Symbol.iterator]();
  const pendingLines = { [Symbol.asyncIterator]: () => iterator as AsyncIterator<string> };
  await db.transaction().execute(async (trx) => {
    let users = new Map<string, SocialUserRow>();
    let posts = new Map<string, NewSocialPost>();
    let pending = 0;
    const flush = async () => {
      await upsertUsers(trx, [...users.values()]);
      await upsertPosts(trx, [...posts.values()]);
      result.users += users.size;
      result.posts += posts.size;
      users = new Map();
      posts = new Map();
      pending = 0;
    };
    let n = 0;
    for await (const raw of pendingLines) {
      n++;
      const line = raw.trim();
      if (!line) continue;
      try {
        collectLine(line, users, posts);
      } catch (err) {
        if (err instanceof ImportError) throw new ImportError(`line ${n}: ${err.message}`);
        throw err;
      }
      if (++pending >= BATCH_LINES) await flush();
    }
    await flush();
  });
  return result;
}
