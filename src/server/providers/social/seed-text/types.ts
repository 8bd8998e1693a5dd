/**
 * The phrase books the social seed writes posts from: per language, whole sentences per topic (with
 * a few slots: {city}, {day}, {n}, {thing}) that people would write, bios that say what they post
 * about, and reply sentences that answer a post of the same topic. Slots only take words that need
 * no agreement with the sentence around them (place names, weekdays, numbers, named things).
 */

export const TOPICS = ['coffee', 'football', 'tech', 'space', 'food', 'books', 'travel', 'climate'] as const;
export type Topic = (typeof TOPICS)[number];

export interface TopicText {
  /** Short bio phrases: a user's bio joins one or two of their topics'. */
  bio: string[];
  /** Sentences of an original post. */
  posts: string[];
  /** Sentences that answer a post on the topic. */
  replies: string[];
  /** Hashtags people of this language use for it (without #). */
  tags: string[];
  /** Named things a {thing} slot takes. */
  things: string[];
}

export interface LangText {
  first: string[];
  last: string[];
  /** Display-name order: Japanese names are written family name first. */
  familyFirst?: boolean;
  days: string[];
  cities: string[];
  /** Openers of a reply, before its topic sentence ('' = none). */
  reactions: string[];
  /** What a quote post says over the post it quotes. */
  quoteLeads: string[];
  /** Words before a link. */
  linkLeads: string[];
  /** A bio's closing clause ({city} slot), '' for none. */
  bioTails: string[];
  /** How the language joins two sentences (Japanese needs no space). */
  joiner: string;
  topics: Record<Topic, TopicText>;
}
