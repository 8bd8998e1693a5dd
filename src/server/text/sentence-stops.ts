/**
 * Full stops that end no sentence: an initial ("Philip A. Nelson"), a common abbreviation ("e.g.",
 * "i.e.", "etc.", "vs.", "Dr."), a version or number ("v1. 2"). Unicode's sentence rules cut after
 * "A. " before a capital; the splitter asks here before accepting a cut.
 */

/** Abbreviations written with a full stop, lower-cased, without it. */
const ABBREVIATIONS = new Set(
  'e.g i.e vs cf al approx ca dept est fig figs inc ltd co corp jr sr dr mr mrs ms mt no nos op pp prof rev st vol vols ed eds esp resp incl ibid viz'.split(
    ' ',
  ),
);

/** Months written short: "in Oct. 2004", "Dec. 9, 2008" stop before their number, not there. */
const MONTHS = new Set('jan feb mar apr jun jul aug sep sept oct nov dec'.split(' '));

/**
 * Whether a cut after `before` (the text up to a candidate sentence boundary, its trailing space
 * included) falls inside a sentence: the last word is an initial or a known abbreviation, or a
 * month written short before the number `after` opens with.
 */
export function isFalseStop(before: string, after = ''): boolean {
  const m = /(?:^|[\s(["'“‘])([\p{L}][\p{L}.]*)\.\s*$/u.exec(before);
  if (!m) return false;
  const word = m[1];
  if (MONTHS.has(word.toLowerCase()) && /^\d/.test(after)) return true;
  // A single capital letter: an initial ("A." in "Philip A. Nelson", "J. R. R. Tolkien").
  if (/^\p{Lu}$/u.test(word)) return true;
  // Dotted initials or abbreviations: "e.g", "i.e", "U.S"; spaced too, as groff sets them ("e. g.").
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word) || /(?:^|[\s(])\p{L}\.\s+\p{L}\.\s*$/u.test(before)) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}
