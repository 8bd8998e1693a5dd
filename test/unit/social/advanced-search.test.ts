import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import {
  upsertPosts,
  upsertUsers,
  pagePosts,
  countPosts,
  type SocialUserRow,
} from '../../../src/server/store/social/social.repo.js';
import { compileQuery } from '../../../src/server/store/social/compile.js';
import { parseQuery, SocialQueryError } from '../../../src/server/providers/social/query-parse.js';
import { postRecord, type PostInput } from '../../../src/server/providers/social/records.js';

/**
 * The query language over a fixture with known answers: for each query, exactly the posts it must
 * return (every other post of the fixture must not come back), on SQLite and PostgreSQL.
 */
const DAY = 86400;
const T0 = Date.UTC(2025, 2, 1) / 1000; // 2025-03-01

function user(name: string, extra: Partial<SocialUserRow> = {}): SocialUserRow {
  return {
    id: `u_${name}`,
    username: name,
    username_lc: name.toLowerCase(),
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
    ...extra,
  };
}
const USERS = [user('Alice', { verified: 1 }), user('bob', { blue_verified: 1 }), user('carol'), user('dave')];

const m = (favorite_count = 0, retweet_count = 0, reply_count = 0) => ({
  favorite_count,
  retweet_count,
  reply_count,
  quote_count: 0,
  view_count: 0,
  bookmark_count: 0,
});
const ID = (k: string) => String(100 + Number(k.slice(1)));
type Fixture = Omit<PostInput, 'id' | 'source' | 'metrics' | 'created_ts'> & {
  day: number;
  metrics?: PostInput['metrics'];
};
const POSTS: Record<string, Fixture> = {
  p1: {
    author_id: 'u_Alice',
    day: 0,
    lang: 'en',
    content: 'Morning coffee with the team #coffee $AAPL',
    media_urls: ['https://m.example.com/1.jpg'],
    metrics: m(50, 10, 2),
  },
  p2: {
    author_id: 'u_bob',
    day: 1,
    lang: 'en',
    content: 'Coffee is overrated, tea forever https://tea.example.com/why',
    metrics: m(5),
  },
  p3: { author_id: 'u_carol', day: 2, lang: 'es', content: 'café por la mañana' },
  p4: {
    author_id: 'u_bob',
    day: 3,
    lang: 'en',
    content: '@Alice totally agree about the coffee',
    in_reply_to_id: ID('p1'),
    in_reply_to_user_id: 'u_Alice',
    in_reply_to_username: 'Alice',
    conversation_id: ID('p1'),
    metrics: m(1, 0, 1),
  },
  p5: {
    author_id: 'u_carol',
    day: 4,
    lang: 'en',
    content: '@bob me too, dark roast',
    in_reply_to_id: ID('p4'),
    in_reply_to_user_id: 'u_bob',
    in_reply_to_username: 'bob',
    conversation_id: ID('p1'),
  },
  p6: {
    author_id: 'u_dave',
    day: 5,
    lang: 'en',
    content: 'Look at this',
    quoted_id: ID('p1'),
    media_urls: ['https://m.example.com/6.mp4'],
  },
  p7: {
    author_id: 'u_dave',
    day: 6,
    lang: 'en',
    content: 'RT @bob: Coffee is overrated, tea forever',
    retweeted_id: ID('p2'),
  },
  p8: {
    author_id: 'u_Alice',
    day: 7,
    lang: 'en',
    content: 'Launching our rocket tomorrow #space #launch https://space.example.org/launch',
    metrics: m(500, 100),
  },
  p9: { author_id: 'u_carol', day: 8, lang: 'fr', content: 'le café et le pain' },
  p10: { author_id: 'u_bob', day: 9, lang: 'en', content: 'exact phrase test: dark roast coffee beans $TSLA' },
};
const ALL = Object.keys(POSTS);
const not = (...keys: string[]) => ALL.filter((k) => !keys.includes(k));

const CASES: Array<[string, string[]]> = [
  ['coffee', ['p1', 'p2', 'p4', 'p7', 'p10']],
  ['COFFEE', ['p1', 'p2', 'p4', 'p7', 'p10']],
  ['coffee tea', ['p2', 'p7']],
  ['coffee AND tea', ['p2', 'p7']],
  ['coffee OR café', ['p1', 'p2', 'p3', 'p4', 'p7', 'p9', 'p10']],
  ['"dark roast"', ['p5', 'p10']],
  ['"dark roast coffee"', ['p10']],
  ['"roast dark"', []],
  ['coffee -tea', ['p1', 'p4', 'p10']],
  ['coffee -"dark roast"', ['p1', 'p2', 'p4', 'p7']],
  ['from:alice', ['p1', 'p8']],
  ['from:@ALICE', ['p1', 'p8']],
  ['-from:alice', not('p1', 'p8')],
  ['to:alice', ['p4']],
  ['to:bob', ['p5']],
  ['@bob', ['p5', 'p7']],
  ['@alice', ['p4']],
  ['#coffee', ['p1']],
  ['#space OR #launch', ['p8']],
  ['-#coffee', not('p1')],
  ['$AAPL', ['p1']],
  ['$tsla', ['p10']],
  ['lang:es', ['p3']],
  ['lang:FR', ['p9']],
  ['-lang:en', ['p3', 'p9']],
  ['since:2025-03-09', ['p9', 'p10']],
  ['until:2025-03-02', ['p1']],
  ['since:2025-03-03 until:2025-03-05', ['p3', 'p4']],
  [`since_time:${T0 + 8 * DAY}`, ['p9', 'p10']],
  [`until_time:${T0 + DAY}`, ['p1']],
  [`since_id:${ID('p8')}`, ['p9', 'p10']],
  [`max_id:${ID('p2')}`, ['p1', 'p2']],
  ['min_faves:50', ['p1', 'p8']],
  ['min_retweets:100', ['p8']],
  ['min_replies:1', ['p1', 'p4']],
  ['filter:replies', ['p4', 'p5']],
  ['-filter:replies', not('p4', 'p5')],
  ['filter:media', ['p1', 'p6']],
  ['filter:images', ['p1']],
  ['filter:videos', ['p6']],
  ['-filter:media', not('p1', 'p6')],
  ['filter:links', ['p2', 'p8']],
  ['filter:quote', ['p6']],
  ['filter:retweets', ['p7']],
  ['filter:verified', ['p1', 'p8']],
  ['filter:blue_verified', ['p2', 'p4', 'p10']],
  ['url:space.example', ['p8']],
  ['url:"tea.example.com/why"', ['p2']],
  [`conversation_id:${ID('p1')}`, ['p1', 'p4', 'p5']],
  [`quoted_tweet_id:${ID('p1')}`, ['p6']],
  ['(coffee OR rocket) from:alice', ['p1', 'p8']],
  ['coffee (from:bob OR from:carol) -filter:replies', ['p2', 'p10']],
  ['-(from:alice OR from:bob)', ['p3', 'p5', 'p6', 'p7', 'p9']],
  // OR binds tighter than the implicit AND: coffee AND (filter:replies OR from:alice).
  ['coffee filter:replies OR from:alice', ['p1', 'p4']],
  ['coffee lang:en min_faves:5 -filter:replies', ['p1', 'p2']],
];

const ERRORS: Array<[string, RegExp]> = [
  ['coffee foo:bar', /unknown operator "foo:"/],
  ['near:london', /unknown operator "near:"/],
  ['filter:gifs', /unknown filter "filter:gifs"/],
  ['since:2025-13-01', /since: wants a date/],
  ['min_faves:lots', /min_faves: wants a whole number/],
  ['(coffee', /never closed/],
  ['coffee)', /no matching/],
  ['coffee OR', /OR needs a term/],
  ['"unclosed', /unclosed quote/],
  ['!!!', /no searchable term/],
];

const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('advanced search syntax', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    await upsertUsers(store.db, USERS);
    await upsertPosts(
      store.db,
      Object.entries(POSTS).map(([k, p]) =>
        postRecord({ ...p, id: ID(k), source: 'test', created_ts: T0 + p.day * DAY + 3600, metrics: p.metrics ?? m() }),
      ),
    );
  });

  it.each(CASES)('%s', async (query, expected) => {
    const where = compileQuery(store.db, parseQuery(query));
    const rows = await pagePosts(store.db, where, 'latest', undefined, 100);
    const keys = rows.map((r) => `p${Number(r.id) - 100}`);
    expect(keys.sort()).toEqual([...expected].sort());
    expect(await countPosts(store.db, where)).toBe(expected.length);
  });

  it.each(ERRORS)('%s is refused', (query, message) => {
    expect(() => parseQuery(query)).toThrow(SocialQueryError);
    expect(() => parseQuery(query)).toThrow(message);
  });

  it('Latest is newest first, Top by engagement score', async () => {
    const where = compileQuery(store.db, parseQuery('coffee'));
    expect((await pagePosts(store.db, where, 'latest', undefined, 100)).map((r) => r.id)).toEqual(
      ['p10', 'p7', 'p4', 'p2', 'p1'].map(ID),
    );
    const top = await pagePosts(store.db, compileQuery(store.db, parseQuery('-lang:es -lang:fr')), 'top', undefined, 3);
    expect(top.map((r) => r.id)).toEqual(['p8', 'p1', 'p2'].map(ID));
  });
});
