import type { SocialUserRow } from '../../store/social/social.repo.js';
import { postRecord, type PostInput } from './records.js';
import { mulberry32 } from '../../engines/seeded-random.js';
import {
  bioOf,
  linkLead,
  nameOf,
  personaOf,
  postText,
  quoteText,
  replyText,
  topicTags,
  type Persona,
  type Rand,
} from './seed-compose.js';
import { LANG_WEIGHTS, type Topic } from './seed-text/index.js';

/**
 * The local social store's starting data: a few hundred users and several thousand posts in five
 * languages, with threads several levels deep, quotes, reposts, media, links, hashtags, cashtags
 * and mentions. Each user has one or two topics their bio names and their posts are about; replies
 * and quotes answer in their parent's language and topic, written by people who post on it.
 * Generated from a fixed PRNG seed, so every install holds the same data; counts (replies, quotes,
 * reposts, a user's posts) are computed from the posts themselves, so they match what pages return.
 */
export const SEED = {
  users: 300,
  posts: 6000,
  prngSeed: 20261122,
  start: Date.UTC(2025, 5, 1) / 1000,
  end: Date.UTC(2025, 11, 1) / 1000,
} as const;

/** Helpers over the shared seeded generator (engines/seeded-random.ts). */
function prng(seed: number): Rand {
  const next = mulberry32(seed);
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}

const CASHTAGS = ['AAPL', 'TSLA', 'NVDA', 'MSFT', 'AMZN', 'GOOG'];
const DOMAINS = ['news.example.com', 'blog.example.org', 'docs.example.net', 'shop.example.com', 'video.example.org'];
const SOURCES = ['Facet for Web', 'Facet for iPhone', 'Facet for Android', 'Facet API'];

/** Follower counts are heavy-tailed (Pareto, alpha 0.9): most accounts have dozens, a few tens of thousands. */
const followersOf = (r: Rand) => Math.min(5_000_000, Math.floor(30 / Math.pow(1 - r.next() * 0.9999, 1 / 0.9)));

/** Picks an index by weight (a binary search over the running totals). */
function weighted(r: Rand, totals: number[]): number {
  const x = r.next() * totals[totals.length - 1];
  let lo = 0;
  let hi = totals.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (totals[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The last 500 posts that pass `keep` (looking back over the last 2000 only: seeding stays linear). */
const recent = (inputs: PostInput[], keep: (p: PostInput) => boolean) => inputs.slice(-2000).filter(keep).slice(-500);

export interface SeedData {
  users: SocialUserRow[];
  posts: ReturnType<typeof postRecord>[];
}

type SeedUser = SocialUserRow & { persona: Persona };

function makeUsers(r: Rand, count: number): SeedUser[] {
  const langTotals = LANG_WEIGHTS.reduce<number[]>((acc, [, w]) => [...acc, (acc[acc.length - 1] ?? 0) + w], []);
  const taken = new Set<string>();
  const users: SeedUser[] = [];
  for (let i = 0; i < count; i++) {
    const lang = LANG_WEIGHTS[weighted(r, langTotals)][0];
    const persona = personaOf(r, lang);
    const name = nameOf(r, lang);
    let username = name.handle;
    if (taken.has(username.toLowerCase())) username = `${name.handle.slice(0, 12)}${i}`;
    taken.add(username.toLowerCase());
    const followers = followersOf(r);
    const verified = followers > 5_000 ? r.chance(0.6) : r.chance(0.004);
    users.push({
      id: String(1000000 + i * 37),
      username,
      username_lc: username.toLowerCase(),
      display_name: name.display,
      description: bioOf(r, persona),
      followers_count: followers,
      following_count: Math.min(5000, r.int(20, 400) + Math.floor(followers * 0.02 * r.next())),
      tweet_count: 0,
      verified: verified ? 1 : 0,
      blue_verified: verified || r.chance(0.15) ? 1 : 0,
      verified_type: verified ? r.pick(['business', 'government', 'none']) : 'none',
      profile_image_url: `https://pbs.example.com/profile/${username}.jpg`,
      cover_image_url: `https://pbs.example.com/banner/${username}.jpg`,
      created_at: new Date(Date.UTC(2010 + r.int(0, 14), r.int(0, 11), r.int(1, 28))).toISOString(),
      location: persona.city,
      url: r.chance(0.25) ? `https://${r.pick(DOMAINS)}/${username}` : '',
      protected: 0,
      favorites_count: 0,
      media_count: 0,
      can_dm: r.chance(0.5) ? 1 : 0,
      is_automated: 0,
      pinned_tweet_ids: '[]',
      persona,
    });
  }
  return users;
}

/** Likes grow with the author's audience, heavy-tailed: most posts get a few, some take off. */
const likesFor = (r: Rand, followers: number) =>
  Math.floor(followers * (0.003 + 0.08 * Math.pow(r.next(), 5))) + (r.chance(0.6) ? r.int(0, 4) : 0);

export function generateSeed(counts: { users: number; posts: number } = SEED): SeedData {
  const r = prng(SEED.prngSeed);
  const users = makeUsers(r, counts.users);
  const userById = new Map(users.map((u) => [u.id, u]));
  // How much each user posts: heavy-tailed too, and a little higher for larger accounts.
  const activity = users.map((u) => Math.pow(1 - r.next() * 0.99, -0.7) * (1 + Math.log10(1 + u.followers_count) / 3));
  const activityTotals = activity.reduce<number[]>((acc, w) => [...acc, (acc[acc.length - 1] ?? 0) + w], []);
  // Who writes on a topic in a language: repliers and quoters come from here.
  const byLangTopic = new Map<string, SeedUser[]>();
  for (const u of users)
    for (const t of u.persona.topics)
      (
        byLangTopic.get(`${u.persona.lang}/${t}`) ??
        byLangTopic.set(`${u.persona.lang}/${t}`, []).get(`${u.persona.lang}/${t}`)!
      ).push(u);
  const responder = (lang: string, topic: Topic, not: string): SeedUser => {
    const pool = (byLangTopic.get(`${lang}/${topic}`) ?? []).filter((u) => u.id !== not);
    return pool.length > 0 ? r.pick(pool) : users[weighted(r, activityTotals)];
  };

  const inputs: PostInput[] = [];
  const topicOf = new Map<string, Topic>();
  const span = SEED.end - SEED.start;
  const step = span / counts.posts;
  for (let i = 0; i < counts.posts; i++) {
    const created_ts = Math.floor(SEED.start + i * step + r.next() * step * 0.9);
    const id = `${created_ts}${String(i).padStart(6, '0')}`;
    const kind = i < 20 ? 1 : r.next();
    let author = users[weighted(r, activityTotals)];
    let topic = r.chance(0.75) ? author.persona.topics[0] : r.pick(author.persona.topics);
    let lang = author.persona.lang;
    let text: string;
    let prefix = '';
    const input: PostInput = {
      id,
      author_id: author.id,
      content: '',
      created_ts,
      lang,
      source: r.pick(SOURCES),
      media_urls: [],
      is_limited_reply: r.chance(0.03),
      metrics: {
        retweet_count: 0,
        favorite_count: 0,
        reply_count: 0,
        quote_count: 0,
        view_count: 0,
        bookmark_count: 0,
      },
    };
    if (kind < 0.32) {
      // A reply: half the time to a recent reply, so threads grow several levels deep.
      const recentReplies = inputs.slice(-200).filter((p) => p.in_reply_to_id && !p.retweeted_id);
      const parent =
        recentReplies.length > 0 && r.chance(0.5)
          ? r.pick(recentReplies)
          : r.pick(inputs.slice(-400).filter((p) => !p.retweeted_id));
      const parentAuthor = userById.get(parent.author_id)!;
      topic = topicOf.get(parent.id)!;
      lang = parent.lang;
      author = responder(lang, topic, parent.author_id);
      input.in_reply_to_id = parent.id;
      input.in_reply_to_user_id = parent.author_id;
      input.in_reply_to_username = parentAuthor.username;
      input.conversation_id = parent.conversation_id ?? parent.id;
      prefix = `@${parentAuthor.username} `;
      text = replyText(r, lang, topic, parent.content);
    } else if (kind < 0.4) {
      const quoted = r.pick(recent(inputs, (p) => !p.retweeted_id));
      topic = topicOf.get(quoted.id)!;
      lang = quoted.lang;
      author = responder(lang, topic, quoted.author_id);
      input.quoted_id = quoted.id;
      text = quoteText(r, lang, topic);
    } else if (kind < 0.47) {
      const original = r.pick(recent(inputs, (p) => !p.retweeted_id && !p.in_reply_to_id));
      const originalAuthor = userById.get(original.author_id)!;
      author = responder(original.lang, topicOf.get(original.id)!, original.author_id);
      Object.assign(input, {
        author_id: author.id,
        retweeted_id: original.id,
        content: `RT @${originalAuthor.username}: ${original.content}`,
        lang: original.lang,
      });
      topicOf.set(id, topicOf.get(original.id)!);
      inputs.push(input);
      continue;
    } else {
      text = postText(r, author.persona, topic);
      if (r.chance(0.1)) prefix = `@${responder(lang, topic, author.id).username} `;
    }
    input.author_id = author.id;
    input.lang = lang;
    const tagPool = topicTags(lang, topic);
    const tags = r.chance(input.in_reply_to_id ? 0.1 : 0.4) ? [r.pick(tagPool)] : [];
    if (tags.length && r.chance(0.25)) tags.push(r.pick(tagPool.filter((t) => t !== tags[0])));
    const cash = topic === 'tech' && !input.in_reply_to_id && r.chance(0.1) ? ['$' + r.pick(CASHTAGS)] : [];
    const link =
      !input.in_reply_to_id && r.chance(0.2)
        ? [
            linkLead(r, lang),
            `https://${r.pick(DOMAINS)}/${new Date(created_ts * 1000).toISOString().slice(0, 7).replace('-', '/')}/${topic}-${i}`,
          ]
        : [];
    input.media_urls = r.chance(0.15)
      ? [`https://media.example.com/${id}/1.jpg`]
      : r.chance(0.05)
        ? [`https://media.example.com/${id}/clip.mp4`]
        : [];
    input.content = [prefix + text, ...link, ...tags.map((t) => '#' + t), ...cash].join(' ').trim();
    input.metrics.favorite_count = likesFor(r, author.followers_count);
    topicOf.set(id, topic);
    inputs.push(input);
  }

  // Counts from the data itself.
  const byId = new Map(inputs.map((p) => [p.id, p]));
  for (const p of inputs) {
    if (p.in_reply_to_id) byId.get(p.in_reply_to_id)!.metrics.reply_count++;
    if (p.quoted_id) byId.get(p.quoted_id)!.metrics.quote_count++;
    if (p.retweeted_id) byId.get(p.retweeted_id)!.metrics.retweet_count++;
  }
  for (const p of inputs) {
    const m = p.metrics;
    const u = userById.get(p.author_id)!;
    if (!p.retweeted_id) {
      m.view_count =
        Math.floor(u.followers_count * (0.05 + 0.5 * r.next())) +
        (m.favorite_count + m.reply_count + m.retweet_count) * 20 +
        r.int(10, 200);
      m.bookmark_count = Math.floor((m.favorite_count / 12) * r.next() * 2);
    }
    u.tweet_count++;
    if ((p.media_urls ?? []).length > 0) u.media_count++;
  }
  for (const u of users) {
    // Likes given: a few per post seen, so active accounts have liked more.
    u.favorites_count = u.tweet_count * r.int(2, 30) + r.int(0, 500);
    const first = inputs.find((p) => p.author_id === u.id && !p.in_reply_to_id && !p.retweeted_id);
    if (first && r.chance(0.2)) u.pinned_tweet_ids = JSON.stringify([first.id]);
  }
  return { users: users.map(({ persona: _persona, ...u }) => u), posts: inputs.map(postRecord) };
}
