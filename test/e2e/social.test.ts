import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

/** The social CLI against a real `facet serve` and its seeded local social store. */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(() => p?.cleanup());

const credits = async (env?: Record<string, string>) =>
  okJson(await p.cli(['whoami', '--json'], { env })).user.credits as number;

describe('facet social', () => {
  it('search, users info, tweets and replies read one consistent store, and cost exactly what they return', async () => {
    const before = await credits();
    const found = okJson(
      await p.cli(['social', 'search', '#rust lang:en -filter:replies', '--limit', '3', '--json'], { timeout: 60_000 }),
    );
    expect(found.tweets).toHaveLength(3);
    expect(found.has_next).toBe(true);
    for (const t of found.tweets) {
      expect(t.lang).toBe('en');
      expect(t.is_reply).toBe(false);
      expect(t.hashtags.map((h: string) => h.toLowerCase())).toContain('rust');
    }
    expect(await credits()).toBe(before - 3);

    // The author of a result, by name: the same user in info and in their timeline.
    const author = found.tweets[0].author;
    const info = okJson(await p.cli(['social', 'users', 'info', '@' + author.username, 'no-such-user', '--json']));
    expect(info.total).toBe(1);
    expect(info.users[0]).toEqual(author);

    // --all --ndjson walks the whole timeline: as many posts as total, none twice, every one theirs.
    const first = okJson(
      await p.cli(['social', 'users', 'tweets', author.username, '--replies', '--limit', '5', '--json']),
    );
    expect(first.total).toBe(author.tweet_count);
    const walk = ok(
      await p.cli(['social', 'users', 'tweets', author.username, '--replies', '--limit', '5', '--all', '--ndjson']),
    );
    const posts = walk.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(posts).toHaveLength(author.tweet_count);
    expect(new Set(posts.map((t) => t.id)).size).toBe(posts.length);
    expect(posts.every((t) => t.author.user_id === author.user_id)).toBe(true);
    expect(walk.stderr).toMatch(/credits spent/);

    // A post with replies: reply_count matches what the replies pages return.
    const threaded = okJson(await p.cli(['social', 'search', 'min_replies:3', '--limit', '1', '--json'])).tweets[0];
    const replies = okJson(await p.cli(['social', 'replies', threaded.id, '--all', '--json']));
    expect(replies.results[0].replies).toHaveLength(threaded.metrics.reply_count);
    expect(replies.results[0].replies.every((r: { in_reply_to_id: string }) => r.in_reply_to_id === threaded.id)).toBe(
      true,
    );

    const users = okJson(await p.cli(['social', 'users', 'search', author.username, '--json']));
    expect(users.users.map((u: { user_id: string }) => u.user_id)).toContain(author.user_id);
  });

  it('a table on stdout for people, --verbose reports credits, and an unknown operator is a 400 that names it', async () => {
    const table = ok(await p.cli(['social', 'search', 'coffee', '--limit', '2', '--verbose']));
    expect(table.stdout.trim().split('\n')).toHaveLength(2);
    expect(table.stderr).toMatch(/credits: spent 2, left \d+; rate limit: exempt/);

    const bad = await p.cli(['social', 'search', 'coffee near:paris']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/SOCIAL_SEARCH_FAILED/);
    expect(bad.stderr).toMatch(/unknown operator "near:"/);
  });

  it('beta social search and replies answer the camelCase shapes', async () => {
    const search = okJson(await p.cli(['beta', 'social', 'search', '#rust', '--type', 'Top', '--json']));
    expect(search.tweets.length).toBeGreaterThan(0);
    expect(search.tweets[0]).toMatchObject({ type: 'tweet', author: { type: 'user' } });
    expect(search.tweets[0].likeCount).toBeGreaterThanOrEqual(search.tweets[search.tweets.length - 1].likeCount - 1000);
    expect(typeof search.next_cursor).toBe('string');

    const threaded = okJson(await p.cli(['social', 'search', 'min_replies:2', '--limit', '1', '--json'])).tweets[0];
    const replies = okJson(await p.cli(['beta', 'social', 'replies', threaded.id, '--json']));
    expect(replies).toMatchObject({ status: 'success', has_next_page: false, next_cursor: '' });
    expect(replies.tweets.map((t: { inReplyToId: string }) => t.inReplyToId)).toEqual(
      Array(threaded.metrics.reply_count).fill(threaded.id),
    );
  });

  it('402 below 10 credits and 429 past the free windows exit 5; credits and plan are set offline', async () => {
    ok(await p.cli(['serve', 'users', 'create', 'frank', '--credits', '50', '--data-dir', p.dataDir]));
    const token = ok(await p.cli(['serve', 'token', 'frank', '--data-dir', p.dataDir])).stdout.trim();
    const key = okJson(await p.cli(['keys', 'create', '--json'], { env: { FACET_ACCESS_TOKEN: token } })).key as string;
    const env = { FACET_API_KEY: key };

    const one = ok(await p.cli(['social', 'users', 'info', 'nobody', '--verbose'], { env }));
    expect(one.stderr).toMatch(/rate limit: 0 of 1 left/);
    // Fixed 10 s windows on the real clock: a few quick calls span at most two, so one is refused.
    let limited = await p.cli(['social', 'users', 'info', 'nobody'], { env });
    for (let i = 0; i < 4 && limited.exitCode === 0; i++)
      limited = await p.cli(['social', 'users', 'info', 'nobody'], { env });
    expect(limited.exitCode).toBe(5);
    expect(limited.stderr).toMatch(/RATE_LIMIT_EXCEEDED/);

    // Paid subscribers are exempt.
    expect(okJson(await p.cli(['serve', 'users', 'plan', 'frank', 'paid', '--json', '--data-dir', p.dataDir]))).toEqual(
      { user: 'frank', plan: 'paid' },
    );
    ok(await p.cli(['social', 'users', 'info', 'nobody'], { env }));
    ok(await p.cli(['social', 'users', 'info', 'nobody'], { env }));

    expect(
      okJson(await p.cli(['serve', 'users', 'credits', 'frank', '=9', '--json', '--data-dir', p.dataDir])),
    ).toMatchObject({ credits: 9 });
    const poor = await p.cli(['social', 'search', 'coffee'], { env });
    expect(poor.exitCode).toBe(5);
    expect(poor.stderr).toMatch(/insufficient_credits/);
    expect(await credits(env)).toBe(9);
    const whoami = ok(await p.cli(['whoami'], { env })).stdout;
    expect(whoami).toMatch(/plan\s+paid/);
    expect(whoami).toMatch(/credits\s+9/);

    expect(
      okJson(await p.cli(['serve', 'users', 'credits', 'frank', '+20', '--json', '--data-dir', p.dataDir])),
    ).toMatchObject({ before: 9, credits: 29 });
    expect(
      okJson(await p.cli(['serve', 'users', 'credits', 'frank', '-100', '--json', '--data-dir', p.dataDir])),
    ).toMatchObject({ credits: 0 });
    expect((await p.cli(['serve', 'users', 'credits', 'frank', 'lots', '--data-dir', p.dataDir])).exitCode).not.toBe(0);
  });

  it('serve social import takes v2 and beta JSON Lines, a re-import updates, a bad line is refused by number', async () => {
    const v2User = {
      user_id: '77000001',
      username: 'importer',
      display_name: 'Im Porter',
      description: 'imports',
      followers_count: 5,
      tweet_count: 1,
    };
    const v2Post = {
      id: '1999000000000001',
      content: 'zebracorn sighting #imported',
      created_at: '2025-12-24T10:00:00Z',
      lang: 'en',
      author: v2User,
      metrics: { favorite_count: 3 },
    };
    const betaPost = {
      type: 'tweet',
      id: '1999000000000002',
      text: 'quokkafest in camelCase',
      createdAt: 'Wed Dec 24 11:00:00 +0000 2025',
      lang: 'en',
      likeCount: 9,
      replyCount: 0,
      inReplyToId: '1999000000000001',
      inReplyToUsername: 'importer',
      conversationId: '1999000000000001',
      entities: { hashtags: [], urls: [], user_mentions: [] },
      author: { type: 'user', userName: 'camel', id: '77000002', name: 'Camel Case', followers: 1 },
    };
    const file = path.join(p.dataDir, 'import.jsonl');
    writeFileSync(file, [v2User, v2Post, betaPost].map((o) => JSON.stringify(o)).join('\n') + '\n');
    expect(okJson(await p.cli(['serve', 'social', 'import', file, '--json', '--data-dir', p.dataDir]))).toEqual({
      users: 2,
      posts: 2,
    });

    const zebra = okJson(await p.cli(['social', 'search', 'zebracorn from:importer', '--json']));
    expect(zebra.tweets.map((t: { id: string }) => t.id)).toEqual(['1999000000000001']);
    expect(zebra.tweets[0]).toMatchObject({
      hashtags: ['imported'],
      author: { username: 'importer', display_name: 'Im Porter' },
      metrics: { favorite_count: 3 },
    });
    const camel = okJson(await p.cli(['social', 'search', 'quokkafest to:importer', '--json']));
    expect(camel.tweets[0]).toMatchObject({
      id: '1999000000000002',
      is_reply: true,
      in_reply_to_id: '1999000000000001',
      author: { username: 'camel' },
      metrics: { favorite_count: 9 },
    });

    // Re-import: the same ids with new text replace the old.
    writeFileSync(file, JSON.stringify({ ...v2Post, content: 'okapi sighting' }) + '\n');
    ok(await p.cli(['serve', 'social', 'import', file, '--data-dir', p.dataDir]));
    expect(okJson(await p.cli(['social', 'search', 'zebracorn', '--json'])).total).toBe(0);
    expect(okJson(await p.cli(['social', 'search', 'okapi from:importer', '--json'])).total).toBe(1);

    writeFileSync(
      file,
      JSON.stringify(v2User) + '\n{"id": "x1", "content": "bad id", "author": {"user_id": "5", "username": "u5"}}\n',
    );
    const bad = await p.cli(['serve', 'social', 'import', file, '--data-dir', p.dataDir]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/line 2: post id must be a string of digits/);
  });
});
