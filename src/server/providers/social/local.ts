import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../store/database.js';
import {
  SOCIAL_LIMITS,
  type QueryType,
  type SocialPost,
  type TweetRepliesRequest,
  type TweetSearchRequest,
  type TweetsData,
  type UserInfoRequest,
  type UserSearchRequest,
  type UserTweetsRequest,
} from '../../../contract/social.js';
import { type BetaRepliesPage, type BetaSearchPage } from '../../../contract/social-beta.js';
import { HttpError } from '../../errors.js';
import { planSearch, type SearchPlan } from '../../store/social/compile.js';
import type { QueryNode } from '../../store/social/query-ast.js';
import {
  countPosts,
  countUsersMatching,
  keysetOf,
  SMALL_MATCH_SET,
  pagePosts,
  postsByIds,
  searchUsers,
  usersByIds,
  usersByUsernames,
  type PostOrder,
  type SocialPostRow,
} from '../../store/social/social.repo.js';
import { parseQuery, SocialQueryError } from './query-parse.js';
import { cursorScope, CursorError, decodeCursor, encodeCursor, type CursorState } from './cursor.js';
import { betaPostOf, EMBED_DEPTH, postOf, userOf, type PostGraph } from './shapes.js';
import { ensureSocialSeed } from './seeding.js';
import type { SocialProvider } from './provider.js';

const failed = (message: string) => new HttpError('SOCIAL_SEARCH_FAILED', message, { status: 400 });

/** Loads the authors and the embedded (quoted, reposted) posts a page of posts shows. */
async function hydrate(db: Kysely<Database>, rows: SocialPostRow[]): Promise<SocialPost[]> {
  const posts = new Map(rows.map((r) => [r.id, r]));
  let level = rows;
  for (let depth = 0; depth < EMBED_DEPTH; depth++) {
    const wanted = [
      ...new Set(
        level.flatMap((r) => [r.quoted_id, r.retweeted_id]).filter((id): id is string => !!id && !posts.has(id)),
      ),
    ];
    level = await postsByIds(db, wanted);
    for (const r of level) posts.set(r.id, r);
  }
  const userIds = [
    ...new Set([...posts.values()].flatMap((r) => [r.author_id, r.in_reply_to_user_id ?? '']).filter(Boolean)),
  ];
  const graph: PostGraph = { posts, users: new Map((await usersByIds(db, userIds)).map((u) => [u.id, u])) };
  return rows.map((r) => postOf(r, graph));
}

interface PageSpec {
  plan: SearchPlan;
  order: PostOrder;
  scope: string;
  cursor?: string;
  size: number;
  /** Top's depth cap: no more results than this over all pages. */
  depth?: number;
}

/** One keyset page of posts with its total, has_next and signed next cursor. */
async function postPage(db: Kysely<Database>, secret: Uint8Array, spec: PageSpec): Promise<TweetsData> {
  let state: CursorState | undefined;
  if (spec.cursor) {
    try {
      state = decodeCursor(secret, spec.scope, spec.cursor);
    } catch (err) {
      if (err instanceof CursorError || err instanceof SyntaxError)
        throw failed(
          `cursor: ${err instanceof CursorError ? err.message : 'the cursor is not one this platform issued'}`,
        );
      throw err;
    }
  }
  const served = state?.n ?? 0;
  const room = spec.depth !== undefined ? Math.max(0, spec.depth - served) : Infinity;
  const size = Math.min(spec.size, room);
  const cap = Math.min(spec.depth ?? SOCIAL_LIMITS.totalCap, SOCIAL_LIMITS.totalCap);
  // A Top page of a full-text plan is cheapest by sorting the matches when they are few: counting a
  // little past the cap tells (the store's SMALL_MATCH_SET); `total` stays capped as before.
  const counted = await countPosts(
    db,
    spec.plan,
    spec.plan.text && spec.order === 'top' ? Math.max(cap, SMALL_MATCH_SET) : cap,
  );
  const total = Math.min(counted, cap);
  const rows = size > 0 ? await pagePosts(db, spec.plan, spec.order, state?.k, size + 1, counted) : [];
  const page = rows.slice(0, size);
  const hasNext = rows.length > size && served + page.length < (spec.depth ?? Infinity);
  const last = page[page.length - 1];
  return {
    total,
    has_next: hasNext,
    next_cursor:
      hasNext && last
        ? encodeCursor(secret, spec.scope, { k: keysetOf(last, spec.order), n: served + page.length })
        : '',
    tweets: await hydrate(db, page),
  };
}

function parsed(query: string): QueryNode {
  try {
    return parseQuery(query);
  } catch (err) {
    if (err instanceof SocialQueryError) throw failed(`query: ${err.message}`);
    throw err;
  }
}

/** The query's tree with the body's since_time/until_time added (both apply: AND). */
function searchTree(query: string, since?: number, until?: number): QueryNode {
  const items: QueryNode[] = [parsed(query)];
  if (since !== undefined) items.push({ type: 'since', ts: since });
  if (until !== undefined) items.push({ type: 'until', ts: until });
  return items.length === 1 ? items[0] : { type: 'and', items };
}

const orderOf = (t: QueryType | undefined): PostOrder => (t === 'Top' ? 'top' : 'latest');

/** The local provider: the seeded, importable social store. */
export function localSocialProvider(db: Kysely<Database>, secret: Uint8Array): SocialProvider {
  const ready = () => ensureSocialSeed(db);

  const search = async (req: TweetSearchRequest, size: number, endpoint: string) => {
    await ready();
    const type = req.query_type ?? 'Latest';
    return postPage(db, secret, {
      plan: planSearch(db, searchTree(req.query, req.since_time, req.until_time)),
      order: orderOf(type),
      scope: cursorScope({
        endpoint,
        q: req.query,
        type,
        since: req.since_time ?? null,
        until: req.until_time ?? null,
      }),
      cursor: req.cursor,
      size,
      depth: type === 'Top' ? SOCIAL_LIMITS.topDepth : undefined,
    });
  };

  const replies = async (
    tweetId: string,
    cursor: string | undefined,
    since: number | undefined,
    until: number | undefined,
    size: number,
    endpoint: string,
  ) => {
    const conditions = [sql<SqlBool>`p.in_reply_to_id = ${tweetId}`];
    if (since !== undefined) conditions.push(sql<SqlBool>`p.created_ts >= ${since}`);
    if (until !== undefined) conditions.push(sql<SqlBool>`p.created_ts < ${until}`);
    return postPage(db, secret, {
      plan: { where: sql<SqlBool>`(${sql.join(conditions, sql` AND `)})` },
      order: 'oldest',
      scope: cursorScope({ endpoint, tweetId, since: since ?? null, until: until ?? null }),
      cursor,
      size,
    });
  };

  return {
    kind: 'local',

    async userInfo(req: UserInfoRequest, budget: number) {
      await ready();
      const wanted = [...new Set(req.usernames.map((u) => u.replace(/^@/, '').toLowerCase()))];
      const rows = await usersByUsernames(db, wanted);
      const byName = new Map(rows.map((r) => [r.username_lc, r]));
      const users = wanted.flatMap((n) => (byName.has(n) ? [userOf(byName.get(n)!)] : [])).slice(0, budget);
      return { total: users.length, users };
    },

    async userSearch(req: UserSearchRequest, budget: number) {
      await ready();
      const scope = cursorScope({ endpoint: 'user.search', q: req.query });
      let state: CursorState | undefined;
      if (req.cursor) {
        try {
          state = decodeCursor(secret, scope, req.cursor);
        } catch (err) {
          if (err instanceof CursorError || err instanceof SyntaxError)
            throw failed(
              `cursor: ${err instanceof CursorError ? err.message : 'the cursor is not one this platform issued'}`,
            );
          throw err;
        }
      }
      const size = Math.min(SOCIAL_LIMITS.userSearchPage, budget);
      const [rows, total] = await Promise.all([
        searchUsers(db, req.query, state?.k, size + 1),
        countUsersMatching(db, req.query),
      ]);
      const page = rows.slice(0, size);
      const hasNext = rows.length > size;
      const last = page[page.length - 1];
      return {
        total,
        has_next: hasNext,
        next_cursor: hasNext
          ? encodeCursor(secret, scope, { k: [last.followers_count, last.id], n: (state?.n ?? 0) + page.length })
          : '',
        users: page.map(userOf),
      };
    },

    async userTweets(req: UserTweetsRequest, budget: number) {
      await ready();
      if ((req.social_user_id === undefined) === (req.username === undefined))
        throw failed('give exactly one of social_user_id and username');
      const user =
        req.username !== undefined
          ? (await usersByUsernames(db, [req.username.replace(/^@/, '').toLowerCase()]))[0]
          : (await usersByIds(db, [req.social_user_id!]))[0];
      if (!user)
        throw new HttpError(
          'NOT_FOUND',
          `no social user ${req.username !== undefined ? '@' + req.username.replace(/^@/, '') : 'with id ' + req.social_user_id}`,
        );
      const where = req.include_replies
        ? sql<SqlBool>`p.author_id = ${user.id}`
        : sql<SqlBool>`(p.author_id = ${user.id} AND p.is_reply = 0)`;
      return postPage(db, secret, {
        plan: { where },
        order: 'latest',
        scope: cursorScope({ endpoint: 'user.tweets', user: user.id, replies: !!req.include_replies }),
        cursor: req.cursor,
        size: Math.min(req.limit ?? SOCIAL_LIMITS.defaultLimit, budget),
      });
    },

    tweetSearch: (req, budget) =>
      search(req, Math.min(req.limit ?? SOCIAL_LIMITS.defaultLimit, budget), 'tweet.search'),

    async tweetReplies(req: TweetRepliesRequest, budget: number) {
      await ready();
      const ids = [...new Set(req.tweet_ids)];
      if (req.cursor && ids.length !== 1)
        throw failed('cursor: a cursor continues the replies of one post; send it with that single tweet id');
      if (budget < ids.length)
        throw new HttpError(
          'insufficient_credits',
          `replies to ${ids.length} posts need at least ${ids.length} credits; the balance allows ${budget}`,
        );
      const size = Math.min(SOCIAL_LIMITS.repliesPage, Math.floor(budget / ids.length));
      const results = [];
      for (const id of ids) {
        const page = await replies(id, req.cursor, req.since_time, req.until_time, size, 'tweet.replies');
        results.push({
          tweet_id: id,
          total: page.total,
          has_next: page.has_next,
          next_cursor: page.next_cursor,
          replies: page.tweets,
        });
      }
      return { results };
    },

    async betaReplies(req, budget): Promise<BetaRepliesPage> {
      await ready();
      const page = await replies(
        req.tweetId,
        req.cursor || undefined,
        undefined,
        undefined,
        Math.min(SOCIAL_LIMITS.betaPage, budget),
        'beta.replies',
      );
      return {
        tweets: page.tweets.map(betaPostOf),
        has_next_page: page.has_next,
        next_cursor: page.next_cursor,
        status: 'success',
        msg: 'success',
      };
    },

    async betaSearch(req, budget): Promise<BetaSearchPage> {
      const page = await search(
        { query: req.query, query_type: req.queryType, cursor: req.cursor || undefined },
        Math.min(SOCIAL_LIMITS.betaPage, budget),
        'beta.search',
      );
      return { tweets: page.tweets.map(betaPostOf), has_next_page: page.has_next, next_cursor: page.next_cursor };
    },
  };
}
