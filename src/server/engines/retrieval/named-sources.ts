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

/**
 * Of passages from several sources, those a document about `subject` is written from. The subject
 * names sources by words of their titles ("pino long term support" names "Pino Long Term
 * Support"); the names among those words are what a title leads with ("pino", as "winston",
 * "Commander.js", "GZIP" lead theirs), else the words that tell sources apart (in the text of at
 * most half of them, rounded up: never "support"). Kept: the sources whose title or text holds a
 * name (pino's "Benchmarks" too), never one that does not (debug's README, Commander's on Node's
 * long-term support); every passage when the subject names nothing that tells sources apart.
 */
export function aboutNamedSources<T>(
  passages: T[],
  subject: string,
  read: (p: T) => { source: string; title: string; text: string },
): T[] {
  const want = questionStems(subject);
  const named = new Set(passages.flatMap((p) => namedTitleWords(want, read(p).title)));
  if (named.size === 0) return passages;
  // The named words each source holds, in its title and its passages' text.
  const held = new Map<string, Set<string>>();
  for (const p of passages) {
    const r = read(p);
    const words = held.get(r.source) ?? new Set<string>();
    for (const w of questionStems(`${r.title} ${r.text}`)) if (named.has(w)) words.add(w);
    held.set(r.source, words);
  }
  const leading = new Set(
    passages.flatMap((p) => namedTitleWords(want, read(p).title).filter((w) => w === titleLead(read(p).title))),
  );
  const apart = [...named].filter((w) => {
    const holding = [...held.values()].filter((h) => h.has(w)).length;
    return holding < held.size && holding <= Math.ceil(held.size / 2);
  });
  const names = leading.size > 0 ? [...leading] : apart;
  if (names.length === 0) return passages;
  const kept = passages.filter((p) => names.some((w) => held.get(read(p).source)!.has(w)));
  return kept.length === passages.length ? passages : kept;
}

/** The first word of a title as namedTitleWords reads it ("Pino Long Term Support" → pino). */
function titleLead(title: string): string | undefined {
  const first = keywords(title).find((w) => w.length >= 3 || isSpaceless(w));
  return first === undefined ? undefined : stemmer(first);
}
