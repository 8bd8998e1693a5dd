import { sql, type QueryExecutorProvider, type RawBuilder, type SqlBool } from 'kysely';
import type { QueryNode } from './query-ast.js';
import {
  contentMatches,
  hasOrderedSearch,
  termToken,
  type TextSearch,
  type TextTree,
} from '../dialect/social-search.js';

/** The post id as the store's id_key: zero-padded so text order is numeric order. */
export const idKey = (id: string): string => id.padStart(20, '0');

const col = (alias: string, name: string) => sql.ref(`${alias}.${name}`);

function termExists(alias: string, kind: string, value: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM social_terms t WHERE t.post_id = ${col(alias, 'id')} AND t.kind = ${kind} AND t.value = ${value})`;
}

/**
 * Posts linking to a URL that holds `text`: the matching links are found in one pass over the
 * links (a set the store builds once), not per post — correlated per post, SQLite walked every link
 * of the kind for each post.
 */
function urlContains(alias: string, text: string): RawBuilder<SqlBool> {
  const pattern = '%' + text.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
  return sql<SqlBool>`(${col(alias, 'id')} IN (SELECT t.post_id FROM social_terms t WHERE t.kind = 'url' AND t.value LIKE ${pattern} ESCAPE '\\'))`;
}

function authorWhere(alias: string, condition: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return sql<SqlBool>`${col(alias, 'author_id')} IN (SELECT u.id FROM social_users u WHERE ${condition})`;
}

/**
 * One advanced-search tree as one SQL condition over the post aliased `alias`: AND, OR and NOT map
 * to the same SQL operators, words and phrases to the dialect's full-text match, operators to
 * column comparisons and EXISTS over the terms table.
 */
export function compileQuery(db: QueryExecutorProvider, node: QueryNode, alias = 'p'): RawBuilder<SqlBool> {
  const c = (name: string) => col(alias, name);
  switch (node.type) {
    case 'and':
      return sql<SqlBool>`(${sql.join(
        node.items.map((n) => compileQuery(db, n, alias)),
        sql` AND `,
      )})`;
    case 'or':
      return sql<SqlBool>`(${sql.join(
        node.items.map((n) => compileQuery(db, n, alias)),
        sql` OR `,
      )})`;
    case 'not':
      return sql<SqlBool>`(NOT ${compileQuery(db, node.item, alias)})`;
    case 'text':
      return contentMatches(db, alias, node.text);
    case 'from':
      return authorWhere(alias, sql`u.username_lc = ${node.username}`);
    case 'to':
      // Replies to the user; in_reply_to_username is stored lowercased.
      return sql<SqlBool>`(${c('in_reply_to_username')} = ${node.username})`;
    case 'mention':
      return termExists(alias, 'mention', node.username);
    case 'hashtag':
      return termExists(alias, 'hashtag', node.tag);
    case 'cashtag':
      return termExists(alias, 'cashtag', node.tag);
    case 'url':
      return urlContains(alias, node.text);
    case 'lang':
      return sql<SqlBool>`(${c('lang')} = ${node.lang})`;
    case 'since':
      return sql<SqlBool>`(${c('created_ts')} >= ${node.ts})`;
    case 'until':
      return sql<SqlBool>`(${c('created_ts')} < ${node.ts})`;
    case 'since_id':
      return sql<SqlBool>`(${c('id_key')} > ${idKey(node.id)})`;
    case 'max_id':
      return sql<SqlBool>`(${c('id_key')} <= ${idKey(node.id)})`;
    case 'min_faves':
      return sql<SqlBool>`(${c('favorite_count')} >= ${node.count})`;
    case 'min_retweets':
      return sql<SqlBool>`(${c('retweet_count')} >= ${node.count})`;
    case 'min_replies':
      return sql<SqlBool>`(${c('reply_count')} >= ${node.count})`;
    case 'conversation_id':
      return sql<SqlBool>`(${c('conversation_id')} = ${node.id})`;
    case 'quoted_tweet_id':
      return sql<SqlBool>`(${c('quoted_id')} = ${node.id})`;
    case 'filter':
      switch (node.filter) {
        case 'replies':
          return sql<SqlBool>`(${c('is_reply')} = 1)`;
        case 'media':
          return sql<SqlBool>`(${c('has_images')} = 1 OR ${c('has_videos')} = 1)`;
        case 'images':
          return sql<SqlBool>`(${c('has_images')} = 1)`;
        case 'videos':
          return sql<SqlBool>`(${c('has_videos')} = 1)`;
        case 'links':
          return sql<SqlBool>`(${c('has_links')} = 1)`;
        case 'quote':
          return sql<SqlBool>`(${c('quoted_id')} IS NOT NULL)`;
        case 'retweets':
          return sql<SqlBool>`(${c('retweeted_id')} IS NOT NULL)`;
        case 'verified':
          return authorWhere(alias, sql`u.verified = 1`);
        case 'blue_verified':
          return authorWhere(alias, sql`u.blue_verified = 1`);
      }
  }
}

/**
 * How a search runs. `where` is the whole query as one condition (any order, any store). `text`,
 * where the store has a time-ordered full-text index (social-search.ts), is the part of the query the
 * index answers alone — the whole query, or the words and phrases ANDed at its top — with `rest` the
 * other conditions (null when there are none): Latest pages and counts then start from the index.
 */
export interface SearchPlan {
  where: RawBuilder<SqlBool>;
  text?: TextSearch & { rest: RawBuilder<SqlBool> | null };
}

/** The node as a tree of words, phrases, AND and OR only; null when it holds anything else. */
function textTreeOf(node: QueryNode): TextTree | null {
  if (node.type === 'text') return { type: 'text', text: node.text };
  if (node.type === 'hashtag' || node.type === 'cashtag')
    return { type: 'term', token: termToken(node.type, node.tag) };
  if (node.type === 'mention') return { type: 'term', token: termToken('mention', node.username) };
  if (node.type === 'lang') return { type: 'term', token: termToken('lang', node.lang) };
  if (node.type !== 'and' && node.type !== 'or') return null;
  const items = node.items.map(textTreeOf);
  return items.every((t): t is TextTree => t !== null) ? { type: node.type, items } : null;
}

/** The top-level AND's items, nested ANDs flattened (the body's time bounds wrap the query in one). */
function conjuncts(node: QueryNode): QueryNode[] {
  return node.type === 'and' ? node.items.flatMap(conjuncts) : [node];
}

export function planSearch(db: QueryExecutorProvider, node: QueryNode): SearchPlan {
  const where = compileQuery(db, node);
  if (!hasOrderedSearch(db)) return { where };
  const whole = textTreeOf(node);
  if (whole) return { where, text: { tree: whole, rest: null } };
  const parts = conjuncts(node);
  const texts = parts.map(textTreeOf);
  const textParts = texts.filter((t): t is TextTree => t !== null);
  if (textParts.length === 0) return { where };
  // since/until at the top are ranges of the index's rowid (its order is time): they leave `rest`.
  let since: number | undefined;
  let until: number | undefined;
  const others: QueryNode[] = [];
  parts.forEach((part, i) => {
    if (texts[i] !== null) return;
    if (part.type === 'since') since = Math.max(since ?? -Infinity, part.ts);
    else if (part.type === 'until') until = Math.min(until ?? Infinity, part.ts);
    else others.push(part);
  });
  return {
    where,
    text: {
      tree: textParts.length === 1 ? textParts[0] : { type: 'and', items: textParts },
      since,
      until,
      rest:
        others.length === 0 ? null : compileQuery(db, others.length === 1 ? others[0] : { type: 'and', items: others }),
    },
  };
}
