import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { generateSeed } from '../../../src/server/providers/social/seed.js';
import { localSocialProvider } from '../../../src/server/providers/social/local.js';
import { PHRASEBOOKS, TOPICS, type Topic } from '../../../src/server/providers/social/seed-text/index.js';
import type { SocialProvider } from '../../../src/server/providers/social/provider.js';

/**
 * The seeded social data reads as real: posts are sentences in several languages that common-word
 * searches find, replies answer their parent's topic in its language, bios name what their authors
 * post about, follower counts are heavy-tailed and post counts are the posts. Topics are recognised
 * here from the phrase books' sentences (slots as wildcards), independently of how the seed chose them.
 */
const seed = generateSeed();
const byId = new Map(seed.posts.map((p) => [p.id, p]));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pattern = (template: string) =>
  new RegExp(
    template
      .split(/\{\w+\}/)
      .map(escape)
      .join('.+?'),
  );
const matchers = Object.fromEntries(
  Object.entries(PHRASEBOOKS).map(([lang, book]) => [
    lang,
    TOPICS.map((t) => ({
      topic: t,
      posts: [...book.topics[t].posts, ...book.topics[t].replies].map(pattern),
      bio: book.topics[t].bio.map(pattern),
    })),
  ]),
);
const topicsOf = (lang: string, text: string, kind: 'posts' | 'bio'): Set<Topic> =>
  new Set(matchers[lang].filter((m) => m[kind].some((re) => re.test(text))).map((m) => m.topic));
const users = new Map(seed.users.map((u) => [u.id, u]));
const bioTopics = new Map(
  seed.users.map((u) => [
    u.id,
    new Set(Object.keys(PHRASEBOOKS).flatMap((l) => [...topicsOf(l, u.description, 'bio')])),
  ]),
);

describe('seeded social posts', () => {
  it("are whole sentences in five languages, each original post on a topic its author's bio names", () => {
    expect(new Set(seed.posts.map((p) => p.lang))).toEqual(new Set(['en', 'es', 'fr', 'de', 'ja']));
    let originals = 0;
    for (const p of seed.posts) {
      if (p.retweeted_id || p.in_reply_to_id || p.quoted_id) continue;
      originals++;
      const topics = topicsOf(p.lang, p.content, 'posts');
      expect(topics.size, p.content).toBeGreaterThan(0);
      const bio = bioTopics.get(p.author_id)!;
      expect(
        [...topics].some((t) => bio.has(t)),
        `${users.get(p.author_id)!.description} / ${p.content}`,
      ).toBe(true);
      // Text before any link or tag ends a sentence.
      let body = p.content.split(/ (?:https?:\/\/|#|\$[A-Z])/)[0];
      for (const lead of PHRASEBOOKS[p.lang].linkLeads)
        if (body.endsWith(' ' + lead)) body = body.slice(0, -lead.length - 1);
      expect(body, p.content).toMatch(/[.!?。！？]"?$/);
    }
    expect(originals).toBeGreaterThan(2500);
  });

  it('replies answer their parent: same language, same topic, written by someone who posts on it', () => {
    let replies = 0;
    for (const p of seed.posts.filter((x) => x.in_reply_to_id)) {
      const parent = byId.get(p.in_reply_to_id!)!;
      expect(p.lang).toBe(parent.lang);
      expect(p.content.startsWith(`@${users.get(parent.author_id)!.username} `)).toBe(true);
      const mine = topicsOf(p.lang, p.content.replace(/^@\w+ /, ''), 'posts');
      const theirs = topicsOf(parent.lang, parent.content, 'posts');
      if (theirs.size === 0) continue; // a quote that only says "worth reading" names no topic
      replies++;
      expect(
        [...mine].some((t) => theirs.has(t)),
        `${parent.content} -> ${p.content}`,
      ).toBe(true);
      expect(
        [...bioTopics.get(p.author_id)!].some((t) => theirs.has(t)) || users.get(p.author_id)!.description === '',
      ).toBe(true);
    }
    expect(replies).toBeGreaterThan(1000);
  });

  it("authors' follower counts are heavy-tailed and their post counts are their posts", () => {
    const followers = seed.users.map((u) => u.followers_count).sort((a, b) => a - b);
    const median = followers[Math.floor(followers.length / 2)];
    expect(median).toBeGreaterThan(20);
    expect(median).toBeLessThan(500);
    expect(followers.at(-1)!).toBeGreaterThan(median * 50);
    const top = followers.slice(-Math.ceil(followers.length / 100)).reduce((s, n) => s + n, 0);
    expect(top / followers.reduce((s, n) => s + n, 0)).toBeGreaterThan(0.2);
    const counts = new Map<string, number>();
    for (const p of seed.posts) counts.set(p.author_id, (counts.get(p.author_id) ?? 0) + 1);
    for (const u of seed.users) expect(u.tweet_count).toBe(counts.get(u.id) ?? 0);
    // The verified accounts are mostly the big ones.
    const verified = seed.users
      .filter((u) => u.verified)
      .map((u) => u.followers_count)
      .sort((a, b) => a - b);
    expect(verified.length).toBeGreaterThan(0);
    expect(verified[Math.floor(verified.length / 2)]).toBeGreaterThan(median * 10);
  });

  it('is the same on every run', () => {
    const again = generateSeed();
    expect(again.users.map((u) => [u.username, u.description, u.followers_count])).toEqual(
      seed.users.map((u) => [u.username, u.description, u.followers_count]),
    );
    expect(again.posts.map((p) => p.content)).toEqual(seed.posts.map((p) => p.content));
  });
});

describe('searching the seeded store', () => {
  let store: Store;
  let social: SocialProvider;
  beforeAll(async () => {
    store = await openStore({ dataDir: null });
    social = localSocialProvider(store.db, new Uint8Array(32));
  }, 60_000);
  afterAll(() => store?.close());

  it.each([
    ['the', 'en'],
    ['el', 'es'],
    ['le', 'fr'],
    ['der', 'de'],
  ])('common word "%s" finds %s posts that contain it', async (word, lang) => {
    const page = await social.tweetSearch({ query: `${word} lang:${lang}`, limit: 20 }, 20);
    expect(page.total).toBeGreaterThan(50);
    for (const t of page.tweets)
      expect(t.content.toLowerCase()).toMatch(new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'u'));
  });

  it('hashtags find posts in their language and topic, and the authors, replies and timelines agree', async () => {
    const coffee = await social.tweetSearch({ query: '#coffee -filter:replies', limit: 20 }, 20);
    expect(coffee.total).toBeGreaterThan(10);
    const ja = await social.tweetSearch({ query: '#コーヒー', limit: 5 }, 5);
    expect(ja.total).toBeGreaterThan(0);
    for (const t of coffee.tweets.filter((x) => !x.retweeted_tweet && !x.quoted_tweet)) {
      expect(t.hashtags).toContain('coffee');
      expect(topicsOf(t.lang, t.content, 'posts').has('coffee'), t.content).toBe(true);
    }
    const author = coffee.tweets[0].author;
    const info = await social.userInfo({ usernames: [author.username] }, 10);
    expect(info.users[0]).toEqual(author);
    const timeline = await social.userTweets({ username: author.username, include_replies: true, limit: 100 }, 100);
    expect(timeline.total).toBe(author.tweet_count);
    const threaded = (await social.tweetSearch({ query: 'min_replies:2 lang:en', limit: 1 }, 1)).tweets[0];
    const replies = await social.tweetReplies({ tweet_ids: [threaded.id] }, 100);
    expect(replies.results[0].replies).toHaveLength(threaded.metrics.reply_count);
    for (const r of replies.results[0].replies) expect(r.lang).toBe(threaded.lang);
  });
});
