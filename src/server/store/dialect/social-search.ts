import { sql, type QueryExecutorProvider, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from './kind.js';
import { pgVector } from './social-fts.js';
import { indexText } from '../../text/segment.js';

/**
 * Full-text search over social posts, ordered by time (migration 0017_social_speed).
 *
 * SQLite: the FTS5 table `social_search` is contentless and its rowid is the post's `ts_key`,
 * created_ts · 2^26 + (rowid_ mod 2^26) — so the index's own order is the Latest order to the
 * second. A Latest page of a word's matches then reads the index newest first and stops after the
 * page (see textLatestPage), and a count reads only the index, never the posts. Migration 0010's
 * `social_fts` (rowid = rowid_) made every search join and sort all of a word's matches: 3 s for a
 * word in half of 1M posts.
 * PostgreSQL keeps 0010's GIN index over to_tsvector('simple', content): no time-ordered plan, the
 * same results.
 */

/** 2^26: the low part of ts_key. Posts of one second stay distinct unless 67M inserts apart. */
export const TS_KEY_LOW = 67_108_864;

const tsKeyOf = (row: 'new' | 'old') =>
  sql.raw(`(${row}.created_ts * ${TS_KEY_LOW} + (${row}.rowid_ % ${TS_KEY_LOW}))`);
const topKeyOf = (row: 'new' | 'old') => sql.raw(`(${row}.score * ${TS_KEY_LOW} + (${row}.rowid_ % ${TS_KEY_LOW}))`);

/** Migration 0017's index: the ts_key column, the time-ordered FTS table and its triggers, backfilled. */
export async function createOrderedSearch(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  await sql`DROP TRIGGER IF EXISTS social_posts_ai`.execute(db);
  await sql`DROP TRIGGER IF EXISTS social_posts_ad`.execute(db);
  await sql`DROP TRIGGER IF EXISTS social_posts_au`.execute(db);
  await sql`DROP TABLE IF EXISTS social_fts`.execute(db);
  await sql`ALTER TABLE social_posts ADD COLUMN ts_key INTEGER GENERATED ALWAYS AS (created_ts * ${sql.raw(String(TS_KEY_LOW))} + (rowid_ % ${sql.raw(String(TS_KEY_LOW))})) VIRTUAL`.execute(
    db,
  );
  // With the columns the usual non-text conditions read (flags, counts, author), so a count that
  // checks them per match reads this index, not the wide post rows.
  await sql`CREATE INDEX social_posts_ts_key ON social_posts (ts_key, is_reply, favorite_count, retweet_count, reply_count, has_images, has_videos, has_links, author_id)`.execute(
    db,
  );
  // The posts' terms as tokens (see termToken), filled by upsertPosts; backfilled here from social_terms.
  await sql`UPDATE social_posts SET search_terms = coalesce((SELECT group_concat(CASE t.kind WHEN 'hashtag' THEN 'h' WHEN 'cashtag' THEN 'c' ELSE 'm' END || lower(hex(t.value)), ' ')
        FROM social_terms t WHERE t.post_id = social_posts.id AND t.kind IN ('hashtag', 'cashtag', 'mention')), '')`.execute(
    db,
  );
  await sql`CREATE VIRTUAL TABLE social_search USING fts5(content, terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`INSERT INTO social_search(rowid, content, terms) SELECT ts_key, content, ${termsOf('social_posts')} FROM social_posts`.execute(
    db,
  );
  // The same index in the Top order: rowid top_key = score · 2^26 + (rowid_ mod 2^26).
  await sql`ALTER TABLE social_posts ADD COLUMN top_key INTEGER GENERATED ALWAYS AS (score * ${sql.raw(String(TS_KEY_LOW))} + (rowid_ % ${sql.raw(String(TS_KEY_LOW))})) VIRTUAL`.execute(
    db,
  );
  await sql`CREATE INDEX social_posts_top_key ON social_posts (top_key)`.execute(db);
  await sql`CREATE VIRTUAL TABLE social_search_top USING fts5(content, terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`INSERT INTO social_search_top(rowid, content, terms) SELECT top_key, content, ${termsOf('social_posts')} FROM social_posts`.execute(
    db,
  );
  await sql`CREATE TRIGGER social_posts_search_ai AFTER INSERT ON social_posts BEGIN
        INSERT INTO social_search(rowid, content, terms) VALUES (${tsKeyOf('new')}, new.content, ${termsOf('new')});
        INSERT INTO social_search_top(rowid, content, terms) VALUES (${topKeyOf('new')}, new.content, ${termsOf('new')}); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER social_posts_search_ad AFTER DELETE ON social_posts BEGIN
        DELETE FROM social_search WHERE rowid = ${tsKeyOf('old')};
        DELETE FROM social_search_top WHERE rowid = ${topKeyOf('old')}; END`.execute(db);
  await sql`CREATE TRIGGER social_posts_search_au AFTER UPDATE OF content, created_ts, lang, search_terms, score ON social_posts BEGIN
        DELETE FROM social_search WHERE rowid = ${tsKeyOf('old')};
        DELETE FROM social_search_top WHERE rowid = ${topKeyOf('old')};
        INSERT INTO social_search(rowid, content, terms) VALUES (${tsKeyOf('new')}, new.content, ${termsOf('new')});
        INSERT INTO social_search_top(rowid, content, terms) VALUES (${topKeyOf('new')}, new.content, ${termsOf('new')}); END`.execute(
    db,
  );
}

/**
 * Migration 0034's triggers: as 0017's, with the content read from its segmented copy when it has
 * one (search_content: Chinese, Japanese, Thai as words), and re-indexed when that copy changes.
 */
export async function createOrderedSearchTriggersV2(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  const content = (row: 'new' | 'old') => sql.raw(`coalesce(${row}.search_content, ${row}.content)`);
  for (const t of ['social_posts_search_ai', 'social_posts_search_ad', 'social_posts_search_au'])
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)}`.execute(db);
  await sql`CREATE TRIGGER social_posts_search_ai AFTER INSERT ON social_posts BEGIN
        INSERT INTO social_search(rowid, content, terms) VALUES (${tsKeyOf('new')}, ${content('new')}, ${termsOf('new')});
        INSERT INTO social_search_top(rowid, content, terms) VALUES (${topKeyOf('new')}, ${content('new')}, ${termsOf('new')}); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER social_posts_search_ad AFTER DELETE ON social_posts BEGIN
        DELETE FROM social_search WHERE rowid = ${tsKeyOf('old')};
        DELETE FROM social_search_top WHERE rowid = ${topKeyOf('old')}; END`.execute(db);
  await sql`CREATE TRIGGER social_posts_search_au AFTER UPDATE OF content, search_content, created_ts, lang, search_terms, score ON social_posts BEGIN
        DELETE FROM social_search WHERE rowid = ${tsKeyOf('old')};
        DELETE FROM social_search_top WHERE rowid = ${topKeyOf('old')};
        INSERT INTO social_search(rowid, content, terms) VALUES (${tsKeyOf('new')}, ${content('new')}, ${termsOf('new')});
        INSERT INTO social_search_top(rowid, content, terms) VALUES (${topKeyOf('new')}, ${content('new')}, ${termsOf('new')}); END`.execute(
    db,
  );
}

/** The index's terms column of a post: its term tokens and its language's. */
const termsOf = (row: string) => sql.raw(`(${row}.search_terms || ' l' || lower(hex(${row}.lang)))`);

/**
 * A term as one index token: a kind letter (h hashtag, c cashtag, m mention, l language) and the
 * value's UTF-8 bytes in hex — letters and digits only, so the tokenizer keeps it whole and folds
 * nothing: #café never finds #cafe, as the terms table's equality does not.
 */
export function termToken(kind: 'hashtag' | 'cashtag' | 'mention' | 'lang', value: string): string {
  return (
    (kind === 'hashtag' ? 'h' : kind === 'cashtag' ? 'c' : kind === 'mention' ? 'm' : 'l') +
    Buffer.from(value, 'utf8').toString('hex')
  );
}

/** upsertPosts' search_terms of a post (indexed with its language by the triggers above). */
export function searchTermsOf(terms: Array<{ kind: string; value: string }>): string {
  return terms
    .filter((t) => t.kind === 'hashtag' || t.kind === 'cashtag' || t.kind === 'mention')
    .map((t) => termToken(t.kind as 'hashtag', t.value))
    .join(' ');
}

/**
 * A word or phrase as an FTS5 string: bound as a value, quoted, never read as query syntax. Text in
 * a script without spaces is segmented into words first, as the index is (migration 0034), so
 * "退货" is the phrase of its words.
 */
const phrase = (text: string) => `"${(indexText(text) ?? text).replace(/"/g, '""')}"`;

/**
 * A condition on the post aliased `alias`: its content holds these words in this order (one word,
 * or an exact phrase).
 */
export function contentMatches(db: QueryExecutorProvider, alias: string, text: string): RawBuilder<SqlBool> {
  if (dialectOf(db) === 'postgres') {
    return sql<SqlBool>`(${pgVector(alias)} @@ phraseto_tsquery('simple'::regconfig, ${indexText(text) ?? text}))`;
  }
  return sql<SqlBool>`(${sql.ref(`${alias}.ts_key`)} IN (SELECT rowid FROM social_search WHERE social_search MATCH ${'content : ' + phrase(text)}))`;
}

/** A tree of words, phrases, term tokens, AND and OR, which the full-text index can answer alone. */
export type TextTree =
  { type: 'text'; text: string } | { type: 'term'; token: string } | { type: 'and' | 'or'; items: TextTree[] };

/** The tree as one FTS5 query (AND, OR and parentheses are FTS5 syntax; each text a quoted phrase of the content column). */
function ftsQuery(tree: TextTree): string {
  if (tree.type === 'text') return `content : ${phrase(tree.text)}`;
  if (tree.type === 'term') return `terms : ${phrase(tree.token)}`;
  return `(${tree.items.map(ftsQuery).join(tree.type === 'and' ? ' AND ' : ' OR ')})`;
}

/** What the index answers: a tree, and created_ts bounds (since inclusive, until exclusive) as ts_key ranges. */
export interface TextSearch {
  tree: TextTree;
  since?: number;
  until?: number;
}

/** Whether this store has the time-ordered index (the plans below); PostgreSQL answers with compile.ts alone. */
export const hasOrderedSearch = (db: QueryExecutorProvider): boolean => dialectOf(db) === 'sqlite';

// ts_key passes 2^53 (created_ts · 2^26): bounds go to SQLite as BigInt, seconds come back as created_ts.
const keyOf = (second: number) => BigInt(second) * BigInt(TS_KEY_LOW);

/** The index's rowid range for the search's time bounds, the keyset's second (`before`) and `from`. */
function rowidRange(text: TextSearch, before?: number, from?: number): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (text.since !== undefined) parts.push(sql`AND f.rowid >= ${keyOf(text.since)}`);
  if (from !== undefined) parts.push(sql`AND f.rowid >= ${keyOf(from)}`);
  if (text.until !== undefined) parts.push(sql`AND f.rowid < ${keyOf(text.until)}`);
  if (before !== undefined) parts.push(sql`AND f.rowid < ${keyOf(before + 1)}`);
  return sql.join(parts, sql` `);
}

const fromSearch = (text: TextSearch) =>
  sql`social_search f JOIN social_posts p ON p.ts_key = f.rowid WHERE f.social_search MATCH ${ftsQuery(text.tree)}`;

/**
 * The posts matching `text` AND `rest`, newest first, `limit` of them after `before` (the keyset
 * [created_ts, id_key], exclusive). Two reads of the index, each stopping early: the newest
 * `limit` matches by ts_key give the second T of the last one; every match of seconds after T is
 * among them, so the exact page (created_ts, id_key desc) is the first `limit` of the matches from
 * second T on — a range of the index holding the page and the rest of second T.
 */
export async function textLatestPage<Row>(
  db: QueryExecutorProvider,
  text: TextSearch,
  rest: RawBuilder<SqlBool>,
  columns: RawBuilder<unknown>,
  before: [number, string] | undefined,
  limit: number,
): Promise<Row[]> {
  const keyset = before
    ? sql`AND (p.created_ts < ${before[0]} OR (p.created_ts = ${before[0]} AND p.id_key < ${before[1]}))`
    : sql``;
  const newest = await sql<{
    ts: number;
  }>`SELECT p.created_ts AS ts FROM ${fromSearch(text)} ${rowidRange(text, before?.[0])} AND ${rest} ${keyset} ORDER BY f.rowid DESC LIMIT ${limit}`.execute(
    db,
  );
  if (newest.rows.length === 0) return [];
  const from = newest.rows.length < limit ? undefined : Number(newest.rows[newest.rows.length - 1].ts);
  const page =
    await sql<Row>`SELECT ${columns} FROM ${fromSearch(text)} ${rowidRange(text, before?.[0], from)} AND ${rest} ${keyset} ORDER BY p.created_ts DESC, p.id_key DESC LIMIT ${limit}`.execute(
      db,
    );
  return page.rows;
}

/**
 * The same two reads for the Top order, over `social_search_top` (rowid top_key: score, then
 * rowid_): the best `limit` matches by top_key give the score S of the last one, and the exact page
 * (score, id_key desc) is the first `limit` matches scoring S or more. The time bounds are checked on
 * the post here (this index is not in time order).
 */
export async function textTopKeyPage<Row>(
  db: QueryExecutorProvider,
  text: TextSearch,
  rest: RawBuilder<SqlBool>,
  columns: RawBuilder<unknown>,
  before: [number, string] | undefined,
  limit: number,
): Promise<Row[]> {
  const keyset = before
    ? sql`AND (p.score < ${before[0]} OR (p.score = ${before[0]} AND p.id_key < ${before[1]}))`
    : sql``;
  const upper = before ? sql`AND f.rowid < ${keyOf(before[0] + 1)}` : sql``;
  const bounds = sql.join(
    [
      ...(text.since !== undefined ? [sql`AND p.created_ts >= ${text.since}`] : []),
      ...(text.until !== undefined ? [sql`AND p.created_ts < ${text.until}`] : []),
    ],
    sql` `,
  );
  const from = sql`social_search_top f JOIN social_posts p ON p.top_key = f.rowid WHERE f.social_search_top MATCH ${ftsQuery(text.tree)}`;
  const best = await sql<{
    score: number;
  }>`SELECT p.score AS score FROM ${from} ${upper} ${bounds} AND ${rest} ${keyset} ORDER BY f.rowid DESC LIMIT ${limit}`.execute(
    db,
  );
  if (best.rows.length === 0) return [];
  const lower =
    best.rows.length < limit ? sql`` : sql`AND f.rowid >= ${keyOf(Number(best.rows[best.rows.length - 1].score))}`;
  const page =
    await sql<Row>`SELECT ${columns} FROM ${from} ${upper} ${lower} ${bounds} AND ${rest} ${keyset} ORDER BY p.score DESC, p.id_key DESC LIMIT ${limit}`.execute(
      db,
    );
  return page.rows;
}

/**
 * The posts matching `text` AND `rest` by score (the Top order), `limit` after `before` ([score,
 * id_key], exclusive): every match is read and sorted, so the caller uses it only when it knows the
 * matches are few (counted below SMALL_MATCH_SET). Many matches are better served by walking the
 * score index and testing each post (compile.ts's condition), which stops after the page.
 */
export async function textTopPage<Row>(
  db: QueryExecutorProvider,
  text: TextSearch,
  rest: RawBuilder<SqlBool>,
  columns: RawBuilder<unknown>,
  before: [number, string] | undefined,
  limit: number,
): Promise<Row[]> {
  const keyset = before
    ? sql`AND (p.score < ${before[0]} OR (p.score = ${before[0]} AND p.id_key < ${before[1]}))`
    : sql``;
  const page =
    await sql<Row>`SELECT ${columns} FROM ${fromSearch(text)} ${rowidRange(text)} AND ${rest} ${keyset} ORDER BY p.score DESC, p.id_key DESC LIMIT ${limit}`.execute(
      db,
    );
  return page.rows;
}

/** How many posts match `text` AND `rest`, up to `cap`; with no `rest` the index alone answers. */
export async function textCount(
  db: QueryExecutorProvider,
  text: TextSearch,
  rest: RawBuilder<SqlBool> | null,
  cap: number,
): Promise<number> {
  const inner = rest
    ? sql`SELECT 1 FROM ${fromSearch(text)} ${rowidRange(text)} AND ${rest} LIMIT ${cap}`
    : sql`SELECT f.rowid FROM social_search f WHERE f.social_search MATCH ${ftsQuery(text.tree)} ${rowidRange(text)} LIMIT ${cap}`;
  const row = await sql<{ n: number }>`SELECT count(*) AS n FROM (${inner}) m`.execute(db);
  return Number(row.rows[0].n);
}
