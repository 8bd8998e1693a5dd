import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import type { LangText } from './types.js';

export { TOPICS, type Topic, type LangText, type TopicText } from './types.js';

/** The seed's languages and how often each is written (English most, as on the real service). */
export const PHRASEBOOKS: Record<string, LangText> = { en, es, fr, de, ja };
export const LANG_WEIGHTS: Array<[string, number]> = [
  ['en', 0.45],
  ['es', 0.16],
  ['fr', 0.13],
  ['de', 0.13],
  ['ja', 0.13],
];
