import { stemmer } from 'stemmer';
import { keywords } from './fts-query.js';
import { isSpaceless } from '../../text/segment.js';

/**
 * The words of a source's title that a question holds, stemmed ("winston's level option" holds
 * winston's title "winston"): a question that names a source means that source. Words of three
 * letters or more count, and any word of a script written without spaces.
 */
export function namedTitleWords(questionStems: ReadonlySet<string>, title: string): string[] {
  return keywords(title)
    .filter((w) => w.length >= 3 || isSpaceless(w))
    .map((w) => stemmer(w))
    .filter((w) => questionStems.has(w));
}

/** A question's words as namedTitleWords compares them. */
export const questionStems = (question: string): Set<string> => new Set(keywords(question).map((w) => stemmer(w)));
