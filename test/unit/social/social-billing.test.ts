import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { createUser } from '../../../src/server/services/users.service.js';
import { createKey } from '../../../src/server/services/keys.service.js';
import { findUserByName } from '../../../src/server/store/users.repo.js';
import { upsertPosts } from '../../../src/server/store/social/social.repo.js';
import { postRecord } from '../../../src/server/providers/social/records.js';

/**
 * Credits, the free-plan windows and cursors through the real HTTP routes of an in-process server,
 * on a clock the test moves.
 */
let server: RunningServer;
let now = new Date('2026-03-01T00:00:00Z');
const nowS = () => Math.floor(now.getTime() / 1000);
let seq = 0;

async function account(credits: number, plan: 'free' | 'paid' = 'free'): Promise<{ key: string; name: string }> {
  const name = `u${++seq}`;
  const user = await createUser(server.ctx, { name, plan, credits });
  const created = await createKey(server.ctx, { userId: user.id });
  return { key: created.key, name };
}

async function call(key: string, path: string, body: unknown) {
  const r = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
}
const balance = async (name: string) => (await findUserByName(server.ctx.db, name))!.credits;

beforeAll(async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent', now: () => now });
  // The seed is made on first use: once, before the timed parts.
  const admin = server.bootstrap.data.api_key!;
  expect((await call(admin, '/v2/social/user/info', { usernames: ['nobody'] })).status).toBe(200);
}, 60_000);
afterAll(() => server.close());

describe('credits', () => {
  it('charge the real count, say so in headers, and cost nothing for an empty answer', async () => {
    const { key, name } = await account(1000, 'paid');
    const r = await call(key, '/v2/social/tweet/search', { query: 'lang:en', limit: 7 });
    expect(r.status).toBe(200);
    expect(r.body.data.tweets).toHaveLength(7);
    expect(r.headers.get('x-credits-cost')).toBe('7');
    expect(r.headers.get('x-credits-remaining')).toBe('993');
    expect(await balance(name)).toBe(993);

    const empty = await call(key, '/v2/social/tweet/search', { query: 'zzzznothingmatches' });
    expect(empty.body.data).toMatchObject({ total: 0, has_next: false, next_cursor: '', tweets: [] });
    expect(empty.headers.get('x-credits-cost')).toBe('0');
    expect(await balance(name)).toBe(993);

    const info = await call(key, '/v2/social/user/info', { usernames: ['nobody-here', 'nobody2'] });
    expect(info.body.data).toEqual({ total: 0, users: [] });
    expect(await balance(name)).toBe(993);
  });

  it('below 10 is a 402 insufficient_credits before any work, the balance unchanged', async () => {
    const { key, name } = await account(9, 'paid');
    const r = await call(key, '/v2/social/tweet/search', { query: 'coffee' });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ status: 'error', code: 'insufficient_credits' });
    expect(await balance(name)).toBe(9);
  });

  it('a page never holds more results than the balance pays for', async () => {
    const { key, name } = await account(12, 'paid');
    const r = await call(key, '/v2/social/tweet/search', { query: 'lang:en', limit: 50 });
    expect(r.body.data.tweets).toHaveLength(12);
    expect(r.body.data.has_next).toBe(true);
    expect(await balance(name)).toBe(0);
  });

  it('20 concurrent requests never spend the same credit', async () => {
    const { key, name } = await account(100, 'paid');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(key, '/v2/social/tweet/search', { query: 'lang:en', limit: 10 })),
    );
    const served = answers.filter((a) => a.status === 200).reduce((n, a) => n + a.body.data.tweets.length, 0);
    for (const a of answers) expect([200, 402]).toContain(a.status);
    expect(served).toBeLessThanOrEqual(100);
    expect(await balance(name)).toBe(100 - served);
  });
});

describe('free-plan rate limits', () => {
  const search = (key: string) => call(key, '/v2/social/user/info', { usernames: ['nobody'] });

  it('1 per 10 s, 3 per minute, 10 per 10 minutes, with an exact Retry-After', async () => {
    now = new Date('2026-03-01T01:00:00Z'); // on a 10-minute boundary
    const { key } = await account(50);
    expect((await search(key)).status).toBe(200);
    let r = await search(key);
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(r.headers.get('retry-after')).toBe('10');

    now = new Date(now.getTime() + 9_000); // t+9: the 10 s window still holds
    r = await search(key);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');

    now = new Date(now.getTime() + 1_000); // t+10: next window
    expect((await search(key)).status).toBe(200);
    now = new Date(now.getTime() + 10_000); // t+20
    expect((await search(key)).status).toBe(200);
    now = new Date(now.getTime() + 10_000); // t+30: the fourth in this minute
    r = await search(key);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('30');

    // Each new minute allows three more (one per 10 s) until the ten of the 10 minutes are used.
    let ok = 3;
    for (let minute = 1; ok < 10; minute++) {
      for (let s = 0; s < 30 && ok < 10; s += 10) {
        now = new Date(Date.parse('2026-03-01T01:00:00Z') + minute * 60_000 + s * 1000);
        expect((await search(key)).status).toBe(200);
        ok++;
      }
    }
    now = new Date(Date.parse('2026-03-01T01:04:00Z'));
    r = await search(key);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe(String(600 - 240));
    now = new Date(Date.parse('2026-03-01T01:10:00Z'));
    expect((await search(key)).status).toBe(200);
  });

  it('paid subscribers and balances of 100 or more are exempt', async () => {
    now = new Date('2026-03-01T02:00:00Z');
    const paid = await account(50, 'paid');
    const rich = await account(150);
    for (let i = 0; i < 12; i++) {
      expect((await search(paid.key)).status).toBe(200);
      expect((await search(rich.key)).status).toBe(200);
    }
  });
});

describe('cursors', () => {
  it('a walk returns every post exactly once while new posts arrive, and ends with has_next false', async () => {
    const { key } = await account(100_000, 'paid');
    const query = { query: '#rust', limit: 25 };
    const first = await call(key, '/v2/social/tweet/search', query);
    const total = first.body.data.total;
    expect(total).toBeGreaterThan(50);
    const seen: string[] = first.body.data.tweets.map((t: any) => t.id);
    let cursor = first.body.data.next_cursor;
    let page = 0;
    while (cursor) {
      // A new matching post between pages: newer than everything, so it never enters this walk.
      const id = String(9_000_000_000_000_000 + page);
      await upsertPosts(server.ctx.db, [
        postRecord({
          id,
          author_id: '1000000',
          content: `fresh #rust ${page}`,
          created_ts: nowS() + 86400 * 365,
          lang: 'en',
          source: 'test',
          metrics: {
            retweet_count: 0,
            favorite_count: 0,
            reply_count: 0,
            quote_count: 0,
            view_count: 0,
            bookmark_count: 0,
          },
        }),
      ]);
      const next = await call(key, '/v2/social/tweet/search', { ...query, cursor });
      expect(next.status).toBe(200);
      expect(next.body.data.tweets.length).toBeGreaterThan(0);
      seen.push(...next.body.data.tweets.map((t: any) => t.id));
      cursor = next.body.data.next_cursor;
      expect(next.body.data.has_next).toBe(cursor !== '');
      page++;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(total);
  });

  it('a cursor used with another query, order or endpoint, or a forged one, is a 400', async () => {
    const { key } = await account(10_000, 'paid');
    const first = await call(key, '/v2/social/tweet/search', { query: 'lang:en', limit: 5 });
    const cursor = first.body.data.next_cursor;
    for (const body of [
      { query: 'lang:es', cursor },
      { query: 'lang:en', query_type: 'Top', cursor },
      { query: 'lang:en', cursor: cursor.slice(0, -2) + 'xx' },
    ]) {
      const r = await call(key, '/v2/social/tweet/search', body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('SOCIAL_SEARCH_FAILED');
    }
    const other = await call(key, '/v2/social/user/search', { query: 'a', cursor });
    expect(other.status).toBe(400);
  });
});
