import { afterAll, beforeAll, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { setSetting } from '../../../src/server/store/settings.repo.js';
import { localSocialProvider } from '../../../src/server/providers/social/local.js';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import {
  countPosts,
  keysetOf,
  pagePosts,
  upsertPosts,
  type PostOrder,
} from '../../../src/server/store/social/social.repo.js';
import { compileQuery, planSearch } from '../../../src/server/store/social/compile.js';
import { parseQuery } from '../../../src/server/providers/social/query-parse.js';
import { postRecord } from '../../../src/server/providers/social/records.js';
import { dialectOf } from '../../../src/server/store/dialect/kind.js';

/**
 * Migration 0017's time-ordered index (dialect/social-search.ts) answers searches from the index
 * (Latest pages newest first, counts without the posts, Top pages of few matches by sorting them).
 * Its answers must be those of the one condition compile.ts makes: every page of a cursor walk and
 * every count, over posts that share seconds (the index orders by second only), on both stores.
 * And it must read the index, not the posts: the plan SQLite runs is checked.
 */
const T0 = Date.UTC(2025, 0, 1) / 1000;
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'café', 'cafe', 'omega'];
const TAGS = ['rust', 'go', 'café', 'AI'];

function rand(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r = rand(13);
const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
// 400 posts over 60 seconds: many share a second, and ids do not follow insertion order.
const POSTS = Array.from({ length: 400 }, (_, i) => {
  const words = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(WORDS));
  const tags = r() < 0.5 ? [` #${pick(TAGS)}`] : [];
  const mention = r() < 0.2 ? ` @${pick(['ann', 'bo'])}` : '';
  const fav = Math.floor(r() * 30);
  return postRecord({
    id: String(5000 + ((i * 7919) % 400)),
    author_id: 'u1',
    content: words.join(' ') + tags.join('') + mention,
    created_ts: T0 + Math.floor(r() * 60),
    lang: pick(['en', 'fr', 'EN']),
    source: 'test',
    in_reply_to_id: r() < 0.3 ? '1' : null,
    metrics: {
      favorite_count: fav,
      retweet_count: fav % 3,
      reply_count: 0,
      quote_count: 0,
      view_count: 0,
      bookmark_count: 0,
    },
  });
});

const QUERIES = [
  'alpha',
  'alpha beta',
  '"alpha beta"',
  'alpha OR omega',
  'café',
  'cafe',
  '#rust',
  '#café',
  '#ai lang:en',
  'lang:EN',
  '#go alpha',
  '@ann',
  'alpha -filter:replies min_faves:10',
  `gamma since_time:${T0 + 10} until_time:${T0 + 40}`,
  `#rust since_time:${T0 + 5}`,
  '(alpha OR beta) #go',
  'delta -gamma',
  'omega OR #rust',
  'zzz',
];

const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  await dropTestDatabases();
});

describeOnStores('searches planned on the time-ordered index', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    // Twice: the second import updates every post (the index's update trigger).
    await upsertPosts(store.db, POSTS);
    await upsertPosts(store.db, POSTS);
  });

  async function walk(
    search: Parameters<typeof pagePosts>[1],
    order: PostOrder,
    size: number,
    matches?: number,
  ): Promise<string[]> {
    const ids: string[] = [];
    let after: ReturnType<typeof keysetOf> | undefined;
    for (;;) {
      const rows = await pagePosts(store.db, search, order, after, size, matches);
      ids.push(...rows.map((x) => x.id));
      if (rows.length < size) return ids;
      after = keysetOf(rows[rows.length - 1], order);
    }
  }

  it.each(QUERIES)('%s: the same pages and counts as the plain condition', async (query) => {
    const tree = parseQuery(query);
    const where = compileQuery(store.db, tree);
    const plan = planSearch(store.db, tree);
    const count = await countPosts(store.db, where);
    expect(await countPosts(store.db, plan)).toBe(count);
    expect(await countPosts(store.db, plan, 7)).toBe(Math.min(count, 7));
    for (const order of ['latest', 'top'] as const) {
      const want = await walk(where, order, 1000);
      expect(want.length).toBe(count);
      expect(await walk(plan, order, 3, count)).toEqual(want);
      expect(await walk(plan, order, 7)).toEqual(want);
    }
  });

  it('on SQLite, a Latest search reads its page and its count from the index: no sort of the matches, no post read to count them', async () => {
    if (dialectOf(store.db) !== 'sqlite') return;
    // Every statement the search runs, compiled as it runs (a plugin sees each query on its way).
    const ran: CompiledQuery[] = [];
    const recording = store.db.withPlugin({
      transformQuery: (args) => {
        ran.push(store.db.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    await setSetting(store.db, 'social_seeded', 'test');
    const provider = localSocialProvider(recording, new Uint8Array(32));
    const page = await provider.tweetSearch({ query: 'alpha' }, 100);
    expect(page.tweets.length).toBeGreaterThan(0);
    const plans: string[] = [];
    for (const q of ran.filter((x) => /social_(posts|search|fts)/.test(x.sql) && /^\s*select/i.test(x.sql))) {
      const rows = await store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
      );
      plans.push(rows.rows.map((x) => x.detail).join(' | '));
    }
    const search = plans.filter((p) => /VIRTUAL TABLE/.test(p));
    expect(search.length).toBeGreaterThanOrEqual(2);
    // Before 0017 the page joined every match to its post and sorted them all ("SCAN social_fts
    // VIRTUAL TABLE INDEX 0:M1 ... USE TEMP B-TREE FOR ORDER BY"), and the count read each match's
    // post ("SEARCH p USING INTEGER PRIMARY KEY"). Now: the newest matches straight from the index,
    // a sort only within a rowid range of it (the page's seconds), and a count of index entries.
    expect(search.some((p) => /SCAN f VIRTUAL TABLE/.test(p) && !/TEMP B-TREE/.test(p))).toBe(true);
    for (const p of search.filter((x) => /TEMP B-TREE/.test(x))) expect(p).toMatch(/VIRTUAL TABLE INDEX \d+:M\d+[<>]/);
    expect(search.some((p) => /CO-ROUTINE/.test(p) && !/ p USING|social_posts/.test(p))).toBe(true);
  });
});
