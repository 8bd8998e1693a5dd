import { setImmediate } from 'node:timers/promises';
import { indexText } from '../../text/segment.js';
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import type { SocialPostsTable, SocialUsersTable } from './tables.js';
import type { SearchPlan } from './compile.js';
import { searchTermsOf, textCount, textLatestPage, textTopKeyPage, textTopPage } from '../dialect/social-search.js';

type Db = Kysely<Database> | Transaction<Database>;
export type SocialUserRow = Selectable<SocialUsersTable>;
export type SocialPostRow = Omit<Selectable<SocialPostsTable>, 'rowid_' | 'search_terms' | 'search_content'>;
export type NewSocialPost = SocialPostRow & { terms: Array<{ kind: string; value: string }> };

/** The orders a page can follow; each has a two-column keyset (see keysetOf). */
export type PostOrder = 'latest' | 'top' | 'oldest';

/** Where the last page stopped: the order's first column's value and the id_key. */
export type Keyset = [number, string];

const ORDER_COLUMN: Record<PostOrder, 'created_ts' | 'score'> = {
  latest: 'created_ts',
  top: 'score',
  oldest: 'created_ts',
};

export function keysetOf(row: SocialPostRow, order: PostOrder): Keyset {
  return [row[ORDER_COLUMN[order]], row.id_key];
}

const POST_COLUMNS = [
  'id',
  'id_key',
  'author_id',
  'content',
  'created_at',
  'created_ts',
  'lang',
  'source',
  'conversation_id',
  'in_reply_to_id',
  'in_reply_to_user_id',
  'in_reply_to_username',
  'quoted_id',
  'retweeted_id',
  'is_reply',
  'is_limited_reply',
  'has_images',
  'has_videos',
  'has_links',
  'media_urls',
  'urls',
  'hashtags',
  'mentions',
  'retweet_count',
  'favorite_count',
  'reply_count',
  'quote_count',
  'view_count',
  'bookmark_count',
  'score',
] as const;

/**
 * Below this many matches a Top page of a full-text plan sorts all the matches (read from the
 * index); above, it reads the score-ordered index (textTopKeyPage), whose second read sorts the
 * page's lowest score's ties. The caller passes pagePosts the count when it is lower.
 */
export const SMALL_MATCH_SET = 5000;

/** A bare condition is a plan with no full-text start (the general path, any order). */
const planOf = (search: SearchPlan | RawBuilder<SqlBool>): SearchPlan =>
  'where' in search ? search : { where: search };

/**
 * One page of posts matching the plan, in `order`, after the keyset `after` (exclusive). The keyset
 * is on the order's column and the id, so posts inserted between pages never shift a page: they
 * land before the cursor (newer, for Latest) or in their place, never twice.
 */
export async function pagePosts(
  db: Db,
  search: SearchPlan | RawBuilder<SqlBool>,
  order: PostOrder,
  after: Keyset | undefined,
  limit: number,
  matches?: number,
): Promise<SocialPostRow[]> {
  const { where, text } = planOf(search);
  const columns = () => sql.join(POST_COLUMNS.map((c) => sql.ref(`p.${c}`)));
  if (text && order === 'latest')
    return textLatestPage<SocialPostRow>(db, text, text.rest ?? sql<SqlBool>`1 = 1`, columns(), after, limit);
  if (text && order === 'top') {
    const few = matches !== undefined && matches < SMALL_MATCH_SET;
    return (few ? textTopPage : textTopKeyPage)<SocialPostRow>(
      db,
      text,
      text.rest ?? sql<SqlBool>`1 = 1`,
      columns(),
      after,
      limit,
    );
  }
  const column = ORDER_COLUMN[order];
  const desc = order !== 'oldest';
  let q = db
    .selectFrom('social_posts as p')
    .select(POST_COLUMNS.map((c) => `p.${c}` as const))
    .where(where);
  if (after) {
    const [v, key] = after;
    q = desc
      ? q.where(sql<SqlBool>`(p.${sql.ref(column)} < ${v} OR (p.${sql.ref(column)} = ${v} AND p.id_key < ${key}))`)
      : q.where(sql<SqlBool>`(p.${sql.ref(column)} > ${v} OR (p.${sql.ref(column)} = ${v} AND p.id_key > ${key}))`);
  }
  const dir = desc ? 'desc' : 'asc';
  return await q.orderBy(`p.${column}`, dir).orderBy('p.id_key', dir).limit(limit).execute();
}

/** Posts matching the plan, counted up to `cap` (a broad query over millions stops there). */
export async function countPosts(
  db: Db,
  search: SearchPlan | RawBuilder<SqlBool>,
  cap = Number.MAX_SAFE_INTEGER,
): Promise<number> {
  const { where, text } = planOf(search);
  if (text) return textCount(db, text, text.rest, cap);
  const matching = db
    .selectFrom('social_posts as p')
    .select(sql`1`.as('one'))
    .where(where)
    .limit(cap);
  const row = await db
    .selectFrom(matching.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function postsByIds(db: Db, ids: string[]): Promise<SocialPostRow[]> {
  if (ids.length === 0) return [];
  return await db.selectFrom('social_posts').select(POST_COLUMNS).where('id', 'in', ids).execute();
}

export async function usersByIds(db: Db, ids: string[]): Promise<SocialUserRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('social_users').selectAll().where('id', 'in', ids).execute();
}

export async function usersByUsernames(db: Db, lowercased: string[]): Promise<SocialUserRow[]> {
  if (lowercased.length === 0) return [];
  return db.selectFrom('social_users').selectAll().where('username_lc', 'in', lowercased).execute();
}

/** Users whose username, display name or bio holds `text` (case-insensitive), most followed first. */
function userMatch(text: string): RawBuilder<SqlBool> {
  const like = '%' + text.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  return sql<SqlBool>`(username_lc LIKE ${like} ESCAPE '\\' OR lower(display_name) LIKE ${like} ESCAPE '\\' OR lower(description) LIKE ${like} ESCAPE '\\')`;
}

export async function searchUsers(
  db: Db,
  text: string,
  after: [number, string] | undefined,
  limit: number,
): Promise<SocialUserRow[]> {
  let q = db.selectFrom('social_users').selectAll().where(userMatch(text));
  if (after)
    q = q.where(sql<SqlBool>`(followers_count < ${after[0]} OR (followers_count = ${after[0]} AND id > ${after[1]}))`);
  return q.orderBy('followers_count', 'desc').orderBy('id', 'asc').limit(limit).execute();
}

export async function countUsersMatching(db: Db, text: string): Promise<number> {
  const row = await db
    .selectFrom('social_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(userMatch(text))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countSocialPosts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('social_posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts or replaces users by id (a re-import updates). */
export async function upsertUsers(db: Db, rows: SocialUserRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += 200) {
    if (i > 0) await setImmediate();
    const chunk = rows.slice(i, i + 200);
    await db
      .insertInto('social_users')
      .values(chunk)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const key of Object.keys(chunk[0]) as Array<keyof SocialUserRow>)
            if (key !== 'id') set[key] = eb.ref(`excluded.${key}`);
          return set;
        }),
      )
      .execute();
  }
}

/** Inserts or replaces posts by id, with their terms (a re-import updates both). */
export async function upsertPosts(db: Db, posts: NewSocialPost[]): Promise<void> {
  for (let i = 0; i < posts.length; i += 200) {
    // SQLite runs each statement synchronously: between batches the event loop gets a turn.
    if (i > 0) await setImmediate();
    const chunk = posts.slice(i, i + 200);
    const rows = chunk.map(({ terms, ...row }) => ({
      ...row,
      search_terms: searchTermsOf(terms),
      search_content: indexText(row.content),
    }));
    await db
      .insertInto('social_posts')
      .values(rows)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const key of [...POST_COLUMNS, 'search_terms' as const, 'search_content' as const])
            if (key !== 'id') set[key] = eb.ref(`excluded.${key}`);
          return set;
        }),
      )
      .execute();
    await db
      .deleteFrom('social_terms')
      .where(
        'post_id',
        'in',
        chunk.map((p) => p.id),
      )
      .execute();
    const terms = chunk.flatMap((p) => p.terms.map((t) => ({ post_id: p.id, kind: t.kind, value: t.value })));
    for (let j = 0; j < terms.length; j += 300)
      await db
        .insertInto('social_terms')
        .values(terms.slice(j, j + 300))
        .execute();
  }
}
