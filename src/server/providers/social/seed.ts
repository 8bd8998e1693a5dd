import type { SocialUserRow } from '../../store/social/social.repo.js';
import { postRecord, type PostInput } from './records.js';
import { mulberry32 } from '../../engines/seeded-random.js';

/**
 * The local social store's starting data: a few hundred users and several thousand posts in six
 * languages, with threads several levels deep, quotes, reposts, media, links, hashtags, cashtags
 * and mentions. Generated from a fixed PRNG seed, so every install holds the same data; counts
 * (replies, quotes, reposts, a user's posts) are computed from the posts themselves, so they match
 * what the pages return.
 */
export const SEED = { users: 300, posts: 6000, prngSeed: 20261122, start: Date.UTC(2025, 5, 1) / 1000, end: Date.UTC(2025, 11, 1) / 1000 } as const;

/** Helpers over the shared seeded generator (engines/seeded-random.ts). */
function prng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
    /** Heavy-tailed counts, as follower and like counts are. */
    tail: (scale: number) => Math.floor(scale * Math.pow(next(), 4) * 100),
  };
}

const WORDS: Record<string, string[]> = {
  en: ['coffee', 'morning', 'release', 'launch', 'weather', 'rain', 'football', 'match', 'market', 'music', 'concert', 'garden', 'climate', 'startup', 'design', 'typescript', 'database', 'bridge', 'ocean', 'travel', 'city', 'train', 'book', 'library', 'science', 'space', 'rocket', 'election', 'recipe', 'bread', 'festival', 'museum'],
  es: ['café', 'mañana', 'lluvia', 'fútbol', 'partido', 'mercado', 'música', 'jardín', 'ciudad', 'tren', 'libro', 'ciencia', 'cohete', 'receta', 'pan', 'museo', 'playa', 'viaje'],
  fr: ['café', 'matin', 'pluie', 'football', 'marché', 'musique', 'jardin', 'ville', 'train', 'livre', 'science', 'fusée', 'recette', 'pain', 'musée', 'plage', 'voyage', 'fromage'],
  de: ['kaffee', 'morgen', 'regen', 'fußball', 'markt', 'musik', 'garten', 'stadt', 'zug', 'buch', 'wissenschaft', 'rakete', 'rezept', 'brot', 'museum', 'reise', 'brücke'],
  ja: ['コーヒー', '朝', '雨', 'サッカー', '市場', '音楽', '庭', '都市', '電車', '本', '科学', 'ロケット', 'パン', '旅行'],
  pt: ['café', 'manhã', 'chuva', 'futebol', 'mercado', 'música', 'jardim', 'cidade', 'trem', 'livro', 'ciência', 'foguete', 'receita', 'pão', 'praia', 'viagem'],
};
const LANGS = Object.keys(WORDS);
const HASHTAGS = ['rust', 'typescript', 'ai', 'climate', 'worldcup', 'music', 'travel', 'science', 'space', 'food', 'startups', 'design', 'books', 'photography', 'news', 'opensource'];
const CASHTAGS = ['AAPL', 'TSLA', 'BTC', 'ETH', 'NVDA', 'MSFT', 'AMZN', 'GOOG'];
const DOMAINS = ['news.example.com', 'blog.example.org', 'docs.example.net', 'shop.example.com', 'video.example.org'];
const SOURCES = ['Facet for Web', 'Facet for iPhone', 'Facet for Android', 'Facet API'];
const SYLLABLES = ['ka', 'ri', 'to', 'mi', 'sa', 'lo', 'ne', 'vu', 'da', 'fe', 'jo', 'pa', 'zu', 'ol', 'en', 'ax'];
const PLACES = ['Lisbon', 'Madrid', 'Paris', 'Berlin', 'Tokyo', 'São Paulo', 'London', 'Toronto', 'Lyon', 'Munich', ''];

export interface SeedData {
  users: SocialUserRow[];
  posts: ReturnType<typeof postRecord>[];
}

export function generateSeed(counts: { users: number; posts: number } = SEED): SeedData {
  const r = prng(SEED.prngSeed);
  const users: Array<SocialUserRow & { lang: string }> = [];
  for (let i = 0; i < counts.users; i++) {
    const base = Array.from({ length: r.int(2, 3) }, () => r.pick(SYLLABLES)).join('');
    const username = `${base}${i}`;
    const lang = r.pick(LANGS);
    const verified = r.chance(0.06);
    users.push({
      id: String(1000000 + i * 37),
      username,
      username_lc: username.toLowerCase(),
      display_name: base.charAt(0).toUpperCase() + base.slice(1) + ' ' + r.pick(['Silva', 'Martin', 'Schmidt', 'Tanaka', 'García', 'Smith', 'Dubois', 'Costa']),
      description: `${r.pick(['Writes about', 'Posts on', 'Into', 'Reporter covering'])} ${r.pick(WORDS[lang])} and ${r.pick(HASHTAGS)}`,
      followers_count: r.tail(2000),
      following_count: r.int(0, 2000),
      tweet_count: 0,
      verified: verified ? 1 : 0,
      blue_verified: verified || r.chance(0.2) ? 1 : 0,
      verified_type: verified ? r.pick(['business', 'government', 'none']) : 'none',
      profile_image_url: `https://pbs.example.com/profile/${username}.jpg`,
      cover_image_url: `https://pbs.example.com/banner/${username}.jpg`,
      created_at: new Date(Date.UTC(2010 + r.int(0, 14), r.int(0, 11), r.int(1, 28))).toISOString(),
      location: r.pick(PLACES),
      url: r.chance(0.3) ? `https://${r.pick(DOMAINS)}/${username}` : '',
      protected: 0,
      favorites_count: r.int(0, 50000),
      media_count: 0,
      can_dm: r.chance(0.5) ? 1 : 0,
      is_automated: r.chance(0.03) ? 1 : 0,
      pinned_tweet_ids: '[]',
      lang,
    });
  }

  const inputs: PostInput[] = [];
  const span = SEED.end - SEED.start;
  const step = span / counts.posts;
  for (let i = 0; i < counts.posts; i++) {
    const created_ts = Math.floor(SEED.start + i * step + r.next() * step * 0.9);
    const id = `${created_ts}${String(i).padStart(6, '0')}`;
    const author = r.pick(users);
    const kind = i < 20 ? 'post' : r.next();
    const words = Array.from({ length: r.int(4, 12) }, () => r.pick(WORDS[author.lang]));
    const tags = r.chance(0.35) ? [r.pick(HASHTAGS)] : [];
    if (r.chance(0.1)) tags.push(r.pick(HASHTAGS));
    const cash = r.chance(0.08) ? [r.pick(CASHTAGS)] : [];
    const urls = r.chance(0.2) ? [`https://${r.pick(DOMAINS)}/p/${i}`] : [];
    const media = r.chance(0.15) ? [`https://media.example.com/${id}/1.jpg`] : r.chance(0.05) ? [`https://media.example.com/${id}/clip.mp4`] : [];
    const input: PostInput = {
      id,
      author_id: author.id,
      content: '',
      created_ts,
      lang: author.lang,
      source: r.pick(SOURCES),
      media_urls: media,
      is_limited_reply: r.chance(0.03),
      metrics: { retweet_count: 0, favorite_count: r.tail(50), reply_count: 0, quote_count: 0, view_count: 0, bookmark_count: 0 },
    };
    let prefix = '';
    if (typeof kind === 'number' && kind < 0.32) {
      // A reply: half the time to a recent reply, so threads grow several levels deep.
      const recentReplies = inputs.slice(-200).filter((p) => p.in_reply_to_id && !p.retweeted_id);
      const parent = recentReplies.length > 0 && r.chance(0.5) ? r.pick(recentReplies) : r.pick(inputs.slice(-400).filter((p) => !p.retweeted_id));
      const parentAuthor = users.find((u) => u.id === parent.author_id)!;
      input.in_reply_to_id = parent.id;
      input.in_reply_to_user_id = parent.author_id;
      input.in_reply_to_username = parentAuthor.username;
      input.conversation_id = parent.conversation_id ?? parent.id;
      prefix = `@${parentAuthor.username} `;
    } else if (typeof kind === 'number' && kind < 0.4) {
      const quoted = r.pick(inputs.filter((p) => !p.retweeted_id).slice(-500));
      input.quoted_id = quoted.id;
    } else if (typeof kind === 'number' && kind < 0.47) {
      const original = r.pick(inputs.filter((p) => !p.retweeted_id && !p.in_reply_to_id).slice(-500));
      const originalAuthor = users.find((u) => u.id === original.author_id)!;
      input.retweeted_id = original.id;
      input.content = `RT @${originalAuthor.username}: ${original.content}`;
      input.lang = original.lang;
      input.media_urls = [];
      inputs.push(input);
      continue;
    }
    const mention = !prefix && r.chance(0.1) ? `@${r.pick(users).username} ` : '';
    input.content = [prefix + mention + words.join(' '), ...tags.map((t) => '#' + t), ...cash.map((c) => '$' + c), ...urls].join(' ').trim();
    inputs.push(input);
  }

  // Counts from the data itself.
  const byId = new Map(inputs.map((p) => [p.id, p]));
  for (const p of inputs) {
    if (p.in_reply_to_id) byId.get(p.in_reply_to_id)!.metrics.reply_count++;
    if (p.quoted_id) byId.get(p.quoted_id)!.metrics.quote_count++;
    if (p.retweeted_id) byId.get(p.retweeted_id)!.metrics.retweet_count++;
  }
  const userById = new Map(users.map((u) => [u.id, u]));
  for (const p of inputs) {
    const m = p.metrics;
    if (!p.retweeted_id) {
      m.view_count = (m.favorite_count + m.reply_count + m.retweet_count) * 20 + r.int(10, 500);
      m.bookmark_count = Math.floor(m.favorite_count / 10);
    } else {
      m.favorite_count = 0;
    }
    const u = userById.get(p.author_id)!;
    u.tweet_count++;
    if ((p.media_urls ?? []).length > 0) u.media_count++;
  }
  for (const u of users) {
    const first = inputs.find((p) => p.author_id === u.id && !p.in_reply_to_id && !p.retweeted_id);
    if (first && r.chance(0.2)) u.pinned_tweet_ids = JSON.stringify([first.id]);
  }
  return { users: users.map(({ lang: _lang, ...u }) => u), posts: inputs.map(postRecord) };
}
