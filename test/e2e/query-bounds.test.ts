import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issues 31/32 over HTTP: query and filter shapes that froze the server, starved the CPU workers or
 * answered 500 are refused in each surface's own shape, while /healthz keeps answering.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(() => p?.cleanup());

const headers = () => ({ authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' });
const post = (path: string, body: string) => p.fetch(path, { method: 'POST', headers: headers(), body });
const search = (query: string) => post('/v2/social/tweet/search', JSON.stringify({ query, limit: 5 }));
const betaSearch = (query: string) =>
  p.fetch(`/v1/beta/social/tweet/advanced_search?query=${encodeURIComponent(query)}`, { headers: headers() });
const BACKLINKS = '/v1/beta/seo/backlinks/backlinks/live';

/** The answer, and that /healthz answered while it was being worked on. */
async function withHealth(request: () => Promise<Response>): Promise<{ res: Response; body: any }> {
  const pending = request();
  const health = await p.fetch('/healthz');
  expect(health.status).toBe(200);
  const res = await pending;
  return { res, body: await res.json() };
}

describe('social search', () => {
  it.each([
    ['490 nested parentheses', `${'('.repeat(490)}coffee${')'.repeat(490)}`, /nested more than 10 deep/],
    ['(a OR  nested 60 deep', `${'(a OR '.repeat(60)}b${')'.repeat(60)}`, /at most 40 are allowed/],
    ['a NUL inside a phrase', '"cof\u0000fee"', /control character U\+0000/],
    ['five url: operators', 'url:a OR url:b OR url:c OR url:d OR url:e', /at most 4 are allowed/],
  ])('%s is a 400 on both surfaces', async (_name, query, message) => {
    const v2 = await withHealth(() => search(query));
    expect(v2.res.status).toBe(400);
    expect(v2.body).toMatchObject({ status: 'error', code: 'SOCIAL_SEARCH_FAILED' });
    expect(v2.body.message).toMatch(message);
    const beta = await withHealth(() => betaSearch(query));
    expect(beta.res.status).toBe(400);
    expect(beta.body.error.message).toMatch(message);
  });

  it('random query text is answered or refused, never a 5xx', async () => {
    const piece = fc.oneof(
      fc.constantFrom('coffee', 'OR', '(', ')', '-(', '"', 'url:x', 'from:a', '#rust', 'lang:en'),
      fc.string({ unit: 'binary', maxLength: 5 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 40 }), async (parts) => {
        const query = parts.join(' ').slice(0, 1000);
        const res = await search(query);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});

describe('beta SEO filters and bodies', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it.each([
    [
      'filters nested 50,000 deep',
      `[{"target":"example.com","filters":${deep(50_000)}}]`,
      /nested deeper than 16 levels/,
    ],
    ['filters nested 5,000 deep', `[{"target":"example.com","filters":${deep(5000)}}]`, /nested deeper than 16 levels/],
    [
      // Past the beta bound, within the 100,000 values any large body may hold (text/json-shape.ts).
      'an in list of 50,000 values',
      JSON.stringify([
        { target: 'example.com', filters: ['anchor', 'in', Array.from({ length: 50_000 }, (_, i) => `v${i}`)] },
      ]),
      /more than 20000 JSON values/,
    ],
  ])('%s is a 400 in the beta error shape', async (_name, body, message) => {
    const { res, body: answer } = await withHealth(() => post(BACKLINKS, body));
    expect(res.status).toBe(400);
    expect(answer.error).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect(answer.error.message).toMatch(message);
  });

  it('filters nested 100,000 deep: a body of more than 100,000 JSON values, refused 413 before it is parsed', async () => {
    const body = `[{"target":"example.com","filters":${deep(100_000)}}]`;
    const { res, body: answer } = await withHealth(() => post(BACKLINKS, body));
    expect(res.status).toBe(413);
    expect(answer.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(answer.error.message).toMatch(/more than 100000 JSON values/);
  });

  it('a body past 4 MiB (an in list of 500,000 values) is a 413 naming the limit, refused before it is parsed', async () => {
    const body = JSON.stringify([
      { target: 'example.com', filters: ['anchor', 'in', Array.from({ length: 500_000 }, (_, i) => `v${i}`)] },
    ]);
    const { res, body: answer } = await withHealth(() => post(BACKLINKS, body));
    expect(res.status).toBe(413);
    expect(answer.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(answer.error.message).toMatch(/at most 4 MiB/);
  });

  it('eight backtracking like patterns and a backtracking regex are task errors or quick answers', async () => {
    const like = ['anchor', 'like', '%a%a%a%a%a%a%a%a%a%a%a%a%b'];
    const eight = Array.from({ length: 8 }, () => like).flatMap((c, i) => (i ? ['and', c] : [c]));
    const four = ['anchor', 'url_from', 'url_to', 'page_from_title']
      .map((f) => [f, 'ilike', '%a%a%a%a%a%a%a%a%a%a%a%a%b'])
      .flatMap((c, i) => (i ? ['or', c] : [c]));
    const { res, body } = await withHealth(() =>
      post(
        BACKLINKS,
        JSON.stringify([
          { target: 'example.com', filters: eight },
          { target: 'example.com', filters: four },
          { target: 'example.com', filters: ['anchor', 'regex', '^(a+)+$'] },
        ]),
      ),
    );
    expect(res.status).toBe(200);
    expect(body.tasks.map((t: { status_code: number }) => t.status_code)).toEqual([40504, 20000, 20000]);
    expect(body.tasks[0].status_message).toMatch(/at most 4 like, ilike and regex conditions/);
  });

  it('100 search-volume tasks of 1,000 keywords are refused as a whole in the envelope', async () => {
    const tasks = Array.from({ length: 100 }, () => ({
      keywords: Array.from({ length: 1000 }, (_, i) => `kw ${i}`),
      language_code: 'en',
      location_code: 2840,
    }));
    // 100,000 keywords is past the body's JSON value bound (and the bound of any large body, a 413); 3 tasks are within it.
    const { res, body } = await withHealth(() =>
      post('/v1/beta/seo/keywords_data/clickstream_data/seo_search_volume/live', JSON.stringify(tasks.slice(0, 3))),
    );
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status_code: 40500, tasks_count: 0 });
    expect(body.status_message).toMatch(/3000 keywords; at most 2000 in one request/);
    const whole = await post(
      '/v1/beta/seo/keywords_data/clickstream_data/seo_search_volume/live',
      JSON.stringify(tasks),
    );
    expect(whole.status).toBe(413);
  });
});

describe('batch scrape', () => {
  it('a URL that does not parse is a 400, not a 500 from a later refine', async () => {
    const res = await post('/v1/beta/scrape/batch-scrape', JSON.stringify({ urls: ['q'] }));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/must be an absolute https URL/);
  });
});

describe('other social request strings', () => {
  it.each([
    ['/v2/social/user/search', { query: 'a\u0000b' }],
    ['/v2/social/user/info', { usernames: ['bo\u0000b'] }],
    ['/v2/social/tweet/replies', { tweet_ids: ['1\u00002'] }],
  ])('%s refuses a NUL with a 400 (PostgreSQL refuses NUL in text)', async (path, body) => {
    const res = await post(path, JSON.stringify(body));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/must not contain control characters/);
  });
});
