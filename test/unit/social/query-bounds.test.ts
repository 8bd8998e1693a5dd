import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SOCIAL_LIMITS } from '../../../src/contract/social.js';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import {
  countPosts,
  pagePosts,
  upsertPosts,
  upsertUsers,
  type SocialUserRow,
} from '../../../src/server/store/social/social.repo.js';
import { planSearch } from '../../../src/server/store/social/compile.js';
import { parseQuery, SocialQueryError } from '../../../src/server/providers/social/query-parse.js';
import { postRecord } from '../../../src/server/providers/social/records.js';

/**
 * The query language's bounds (docs/decisions.md "Bounded queries and filters"): any text a caller
 * sends is either refused by the parser (SocialQueryError, a 400) or runs on the store, SQLite's
 * FTS5 index and PostgreSQL's tsquery alike, without a store error.
 */

const T0 = Date.UTC(2025, 2, 1) / 1000;
const WORDS = ['coffee', 'tea', 'rust', 'café', 'dark', 'roast', 'a', 'OR', 'AND', 'or'];
const USERS: SocialUserRow[] = ['alice', 'bob'].map((name) => ({
  id: `u_${name}`,
  username: name,
  username_lc: name,
  display_name: name,
  description: '',
  followers_count: 0,
  following_count: 0,
  tweet_count: 0,
  verified: 0,
  blue_verified: 0,
  verified_type: 'none',
  profile_image_url: '',
  cover_image_url: '',
  created_at: '2020-01-01T00:00:00.000Z',
  location: '',
  url: '',
  protected: 0,
  favorites_count: 0,
  media_count: 0,
  can_dm: 0,
  is_automated: 0,
  pinned_tweet_ids: '[]',
}));
const metrics = {
  favorite_count: 1,
  retweet_count: 0,
  reply_count: 0,
  quote_count: 0,
  view_count: 0,
  bookmark_count: 0,
};

/** Query text built from the grammar's pieces, nested at random, with quotes, operators and stray characters. */
const piece = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(
    '(',
    ')',
    '-(',
    '"',
    '-',
    'from:alice',
    'url:tea',
    'lang:en',
    '#rust',
    '@bob',
    '$AAPL',
    'min_faves:1',
    'since:2025-03-01',
    'filter:links',
    'near:x',
  ),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 3 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const queryText = fc
  .array(piece, { maxLength: 60 })
  .map((parts) => parts.join(' ').slice(0, SOCIAL_LIMITS.queryMaxChars));
/** Deep shapes: n nested groups around a term, in the forms that overflowed FTS5's parser. */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 80 }), fc.constantFrom('(a OR ', '(', '-(', '(coffee ', '(#rust OR '))
  .map(([n, open]) => `${open.repeat(n)}b${')'.repeat(n)}`);

function parsedOrRefused(query: string) {
  try {
    return parseQuery(query);
  } catch (err) {
    expect(err).toBeInstanceOf(SocialQueryError);
    return null;
  }
}

it('refuses queries past their bounds by name, and accepts them at the bound', () => {
  const depth = SOCIAL_LIMITS.queryMaxDepth;
  expect(() => parseQuery(`${'(a OR '.repeat(depth)}b${')'.repeat(depth)}`)).not.toThrow();
  expect(() => parseQuery(`${'(a OR '.repeat(depth + 1)}b${')'.repeat(depth + 1)}`)).toThrow(
    /nested more than 10 deep/,
  );
  const terms = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' OR ');
  expect(() => parseQuery(terms(SOCIAL_LIMITS.queryMaxTerms))).not.toThrow();
  expect(() => parseQuery(terms(SOCIAL_LIMITS.queryMaxTerms + 1))).toThrow(/41 terms; at most 40/);
  expect(() => parseQuery('url:a url:b url:c url:d')).not.toThrow();
  expect(() => parseQuery('url:a url:b url:c url:d url:e')).toThrow(/5 url: operators; at most 4/);
  expect(() => parseQuery('"cof\u0000fee"')).toThrow(/control character U\+0000 at character 5/);
  expect(() => parseQuery('coffee\u001b[31m')).toThrow(/U\+001B/);
  expect(parseQuery('coffee\tand\r\ntea')).toEqual({
    type: 'and',
    items: [
      { type: 'text', text: 'coffee', phrase: false },
      { type: 'text', text: 'and', phrase: false },
      { type: 'text', text: 'tea', phrase: false },
    ],
  });
});

const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('any query text', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    await upsertUsers(store.db, USERS);
    const contents = [
      'Morning coffee #rust $AAPL',
      'tea https://tea.example.com/why @bob',
      'café au lait',
      'dark roast coffee beans',
      'a or and OR',
    ];
    await upsertPosts(
      store.db,
      contents.map((content, i) =>
        postRecord({
          id: String(100 + i),
          author_id: USERS[i % 2].id,
          source: 'test',
          created_ts: T0 + i * 3600,
          lang: 'en',
          content,
          metrics,
        }),
      ),
    );
  });

  it('is refused by the parser or answered by the store, never a store error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(queryText, nested), async (query) => {
        const tree = parsedOrRefused(query);
        if (!tree) return;
        const plan = planSearch(store.db, tree);
        const total = await countPosts(store.db, plan, 1000);
        for (const order of ['latest', 'top'] as const) {
          const rows = await pagePosts(store.db, plan, order, undefined, 21, total);
          expect(rows.length).toBeLessThanOrEqual(Math.min(total, 21));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a query at every bound at once runs', async () => {
    const depth = SOCIAL_LIMITS.queryMaxDepth;
    const query = `${'(coffee OR '.repeat(depth)}url:tea${')'.repeat(depth)} url:a url:b url:c "dark roast" -#rust @bob`;
    const plan = planSearch(store.db, parseQuery(query));
    expect(await countPosts(store.db, plan, 1000)).toBe(0);
    const found = planSearch(store.db, parseQuery(`${'(tea OR '.repeat(depth)}coffee${')'.repeat(depth)}`));
    expect(await countPosts(store.db, found, 1000)).toBe(3);
  });
});
