import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';

/**
 * The upstream social provider: the platform calls the same paths at the configured provider with
 * its key, through the outbound fetch policy, passes answers through unchanged and maps errors.
 */
let upstream: http.Server;
let server: RunningServer;
const seen: Array<{ method: string; url: string; auth?: string; body: string }> = [];
let next: { status: number; body: unknown; headers?: Record<string, string> } = { status: 200, body: {} };

// A post with an extra field the contract does not list: passed through, not dropped.
const author = {
  user_id: '7',
  username: 'up',
  display_name: 'Up',
  description: '',
  followers_count: 1,
  following_count: 0,
  tweet_count: 1,
  verified: false,
  blue_verified: false,
  verified_type: 'none',
  profile_image_url: '',
  cover_image_url: '',
  created_at: '2020-01-01T00:00:00Z',
  location: '',
  url: '',
  protected: false,
  favorites_count: 0,
  media_count: 0,
  can_dm: false,
  is_automated: false,
  pinned_tweet_ids: [],
};
const tweet = {
  id: '42',
  content: 'from upstream',
  author,
  created_at: '2025-01-01T00:00:00Z',
  metrics: { retweet_count: 0, favorite_count: 1, reply_count: 0, quote_count: 0, view_count: 3, bookmark_count: 0 },
  replies: [],
  conversation_id: '42',
  media_urls: [],
  hashtags: [],
  mentions: [],
  urls: [],
  url: 'https://up.example.com/42',
  source: 'x',
  lang: 'en',
  is_reply: false,
  in_reply_to_id: null,
  in_reply_to_user_id: null,
  in_reply_to_username: null,
  quoted_tweet: null,
  retweeted_tweet: null,
  is_limited_reply: false,
  provider_only_field: 'kept',
};

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  server = await startServer({
    memory: true,
    port: 0,
    logLevel: 'silent',
    allowFetchFrom: ['127.0.0.1'],
    socialUpstream: { baseUrl: `http://127.0.0.1:${port}`, apiKey: 'up-key' },
  });
});
afterAll(async () => {
  await server.close();
  await new Promise((r) => upstream.close(r));
});

const call = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(server.url + path, {
    ...init,
    headers: { authorization: `Bearer ${server.bootstrap.data.api_key}`, 'content-type': 'application/json' },
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
};

it('passes v2 data through unchanged, with its key, and charges what it returned', async () => {
  next = {
    status: 200,
    body: { status: 'ok', message: null, data: { total: 1, has_next: false, next_cursor: '', tweets: [tweet] } },
  };
  const r = await call('/v2/social/tweet/search', { method: 'POST', body: JSON.stringify({ query: 'x', limit: 5 }) });
  expect(r.status).toBe(200);
  expect(r.body.data.tweets).toEqual([tweet]);
  expect(r.headers.get('x-credits-cost')).toBe('1');
  expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v2/social/tweet/search', auth: 'Bearer up-key' });
  expect(JSON.parse(seen.at(-1)!.body)).toEqual({ query: 'x', limit: 5 });
});

it('passes beta bodies through and maps provider errors', async () => {
  next = { status: 200, body: { tweets: [], has_next_page: false, next_cursor: '', extra: 1 } };
  const beta = await call('/v1/beta/social/tweet/advanced_search?query=a%20b&queryType=Top');
  expect(beta.body).toEqual(next.body);
  expect(seen.at(-1)!.url).toBe('/v1/beta/social/tweet/advanced_search?query=a+b&queryType=Top&cursor=');

  next = { status: 400, body: { message: 'bad query upstream' } };
  let r = await call('/v2/social/tweet/search', { method: 'POST', body: JSON.stringify({ query: 'x' }) });
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({
    code: 'SOCIAL_SEARCH_FAILED',
    message: expect.stringContaining('bad query upstream'),
  });

  next = { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '7' } };
  r = await call('/v2/social/user/info', { method: 'POST', body: JSON.stringify({ usernames: ['a'] }) });
  expect(r.status).toBe(429);
  expect(r.headers.get('retry-after')).toBe('7');
  expect(r.body.code).toBe('RATE_LIMIT_EXCEEDED');

  next = { status: 503, body: { message: 'down' } };
  r = await call('/v2/social/user/info', { method: 'POST', body: JSON.stringify({ usernames: ['a'] }) });
  expect(r.status).toBe(500);
  expect(r.body.code).toBe('SOCIAL_SEARCH_FAILED');
  // Failures cost nothing.
  expect(r.headers.get('x-credits-cost')).toBeNull();
});
