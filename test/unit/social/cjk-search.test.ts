import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { upsertPosts, upsertUsers, pagePosts, countPosts } from '../../../src/server/store/social/social.repo.js';
import { compileQuery } from '../../../src/server/store/social/compile.js';
import { parseQuery } from '../../../src/server/providers/social/query-parse.js';
import { postRecord } from '../../../src/server/providers/social/records.js';

/**
 * Posts in scripts written without spaces are searched by their words (Intl.Segmenter), on SQLite
 * and PostgreSQL alike: "退货" finds a post about 退货政策, a Japanese word finds its post.
 */
const T0 = Date.UTC(2025, 2, 1) / 1000;
const POSTS: Record<string, { content: string; lang: string }> = {
  '201': { content: '我们的退货政策很简单：七天内可以退货。', lang: 'zh' },
  '202': { content: '今天的咖啡很好喝', lang: 'zh' },
  '203': { content: '返品ポリシーを更新しました', lang: 'ja' },
  '204': { content: 'Our returns policy is simple', lang: 'en' },
};
const CASES: Array<[string, string[]]> = [
  ['退货', ['201']],
  ['政策', ['201']],
  ['"退货政策"', ['201']],
  ['咖啡', ['202']],
  ['ポリシー', ['203']],
  ['returns', ['204']],
];

const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('social search in Chinese and Japanese', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    await upsertUsers(store.db, [
      {
        id: 'u_a',
        username: 'a',
        username_lc: 'a',
        display_name: 'a',
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
      },
    ]);
    const metrics = {
      favorite_count: 0,
      retweet_count: 0,
      reply_count: 0,
      quote_count: 0,
      view_count: 0,
      bookmark_count: 0,
    };
    await upsertPosts(
      store.db,
      Object.entries(POSTS).map(([id, p], i) =>
        postRecord({ ...p, id, author_id: 'u_a', source: 'test', created_ts: T0 + i * 60, metrics }),
      ),
    );
  });

  it.each(CASES)('%s', async (query, expected) => {
    const where = compileQuery(store.db, parseQuery(query));
    const rows = await pagePosts(store.db, where, 'latest', undefined, 100);
    expect(rows.map((r) => r.id).sort()).toEqual(expected);
    expect(await countPosts(store.db, where)).toBe(expected.length);
  });
});
