import { PHRASEBOOKS, TOPICS, type LangText, type Topic } from './seed-text/index.js';

/**
 * Writing for the social seed: fills a phrase book's slots and composes bios, posts, replies and
 * quotes from whole sentences, every choice drawn from the caller's seeded generator.
 */

export interface Rand {
  next: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(xs: readonly T[]) => T;
  chance: (p: number) => boolean;
}

/** What the seed knows of an author beyond their stored row. */
export interface Persona {
  lang: string;
  topics: Topic[];
  city: string;
}

const book = (lang: string): LangText => PHRASEBOOKS[lang];

/** A sentence with its slots filled: {city}, {day}, {n}, {goals}, {temp}, {thing}. */
export function fill(r: Rand, lang: string, topic: Topic, text: string, city?: string): string {
  const b = book(lang);
  const things = b.topics[topic].things;
  return text
    .replace(/\{city\}/g, () => city ?? r.pick(b.cities))
    .replace(/\{day\}/g, () => r.pick(b.days))
    .replace(/\{n\}/g, () => String(r.int(2, 12)))
    .replace(/\{goals\}/g, () => String(r.int(3, 6)))
    .replace(/\{temp\}/g, () => String(r.int(36, 44)))
    .replace(/\{thing\}/g, () => (things.length ? r.pick(things) : r.pick(b.cities)));
}

/** One or two different sentences of a list, joined as the language joins them. */
function sentences(r: Rand, lang: string, topic: Topic, list: string[], two: number, city?: string): string {
  const first = r.pick(list);
  const out = [fill(r, lang, topic, first, city)];
  if (list.length > 1 && r.chance(two)) {
    let second = r.pick(list);
    while (second === first) second = r.pick(list);
    out.push(fill(r, lang, topic, second, city));
  }
  return out.join(book(lang).joiner);
}

/** A bio: one or two of the persona's topics in their words, and sometimes where they live. */
export function bioOf(r: Rand, p: Persona): string {
  const b = book(p.lang);
  const stop = p.lang === 'ja' ? '。' : '.';
  const parts = p.topics.map((t) => fill(r, p.lang, t, r.pick(b.topics[t].bio), p.city) + stop);
  const tails = p.city ? b.bioTails : b.bioTails.filter((t) => !t.includes('{city}'));
  const tail = fill(r, p.lang, p.topics[0], r.pick(tails), p.city);
  if (tail) parts.push(tail);
  return parts.join(b.joiner);
}

/** An original post's text on a topic (without tags, mentions or links). */
export function postText(r: Rand, p: Persona, topic: Topic): string {
  // One city for the whole post: two sentences never land in two places at once.
  const city = p.city && r.chance(0.4) ? p.city : r.pick(book(p.lang).cities);
  return sentences(r, p.lang, topic, book(p.lang).topics[topic].posts, 0.25, city);
}

/** A reply's text, in the parent's language and on its topic: a reaction and an answer the parent does not already say. */
export function replyText(r: Rand, lang: string, topic: Topic, parent: string): string {
  const b = book(lang);
  const reaction = r.pick(b.reactions);
  const fresh = b.topics[topic].replies.filter((s) => !parent.includes(s.split('{')[0]));
  const answer = fill(r, lang, topic, r.pick(fresh.length ? fresh : b.topics[topic].replies));
  return reaction ? reaction + b.joiner + answer : answer;
}

/** What a quote post says over the post it quotes. */
export function quoteText(r: Rand, lang: string, topic: Topic): string {
  const b = book(lang);
  const lead = r.pick(b.quoteLeads);
  return r.chance(0.5) ? lead + b.joiner + fill(r, lang, topic, r.pick(b.topics[topic].replies)) : lead;
}

export const linkLead = (r: Rand, lang: string): string => r.pick(book(lang).linkLeads);
export const topicTags = (lang: string, topic: Topic): string[] => book(lang).topics[topic].tags;

/** A name as people write it, and a handle made from it (ASCII, at most 15 characters). */
export function nameOf(r: Rand, lang: string): { display: string; handle: string } {
  const b = book(lang);
  const first = r.pick(b.first);
  const last = r.pick(b.last);
  const ascii = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase();
  const style = r.int(0, 3);
  const base =
    style === 0
      ? ascii(first) + ascii(last)
      : style === 1
        ? `${ascii(first)}_${ascii(last)}`
        : style === 2
          ? ascii(first)[0] + ascii(last)
          : ascii(first) + r.int(70, 99);
  return { display: b.familyFirst ? `${last} ${first}` : `${first} ${last}`, handle: base.slice(0, 15) };
}

/** A persona's one or two topics and home city. */
export function personaOf(r: Rand, lang: string): Persona {
  const first = r.pick(TOPICS);
  const topics: Topic[] = [first];
  if (r.chance(0.4)) {
    let second = r.pick(TOPICS);
    while (second === first) second = r.pick(TOPICS);
    topics.push(second);
  }
  return { lang, topics, city: r.chance(0.75) ? r.pick(book(lang).cities) : '' };
}
