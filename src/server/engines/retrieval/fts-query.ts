import { fts5Match } from '../../store/dialect/fts.js';
import { isSpaceless, words } from '../../text/segment.js';
import { inDocumentWords, verbForms } from '../../text/verbs.js';
import { spellings } from '../../text/spelling.js';
import { CJK_STOP, glossaryIn, katakanaForms, methodNames } from '../../text/terms.js';

/** Words too common to help ranking; dropping them keeps OR queries from matching everything. */
const STOP = new Set(
  'a an and are as at be but by can could did do does for from had has have how i if in into is it its me my of on or our she so than that the their them then there these they this to was we were what when where which who why will with would you your about tell please'.split(
    ' ',
  ),
);

/** Chinese and Japanese function words: in every passage, so they would match everything. */
const STOP_SPACELESS = new Set([...CJK_STOP, '上']);

/**
 * The meaningful words of a text, lower-cased, in order, without duplicates. Words are what
 * Unicode word segmentation finds (so Chinese and Japanese, written without spaces, are split
 * into words), each cut into its runs of letters and digits, the only characters search syntax
 * never reads as operators. A single character is a word only in a script without spaces.
 */
export function keywords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of words(text.toLowerCase()))
    for (const raw of word.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
      const spaceless = isSpaceless(raw);
      if ((raw.length < 2 && !spaceless) || STOP.has(raw) || STOP_SPACELESS.has(raw) || seen.has(raw)) continue;
      seen.add(raw);
      out.push(raw);
    }
  return out;
}

/**
 * A free-text query as an FTS5 MATCH expression: each keyword quoted (so no user text is read as
 * FTS syntax) and joined with OR, letting bm25 rank chunks that match more and rarer terms first.
 * Returns null when nothing searchable is left.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : fts5Match(words);
}

/**
 * The words a search looks for: the query's keywords, then its single digits ("pino 9.x",
 * "priority 4") and single letters ("what does -k do": the man page's `-k` entry is indexed as the
 * word "k"; "plan B"), too short to be keywords, specific enough to find the row or the option;
 * at most 32. "a" and "I" are words, not options (they would match everything), unless written
 * as one: "-a".
 */
export function searchWords(asked: string): string[] {
  // "turn on" is searched as "enable" too, "wrote" as "write" and "written", "licence" as
  // "license": the index stems endings only.
  const text = `${asked} ${inDocumentWords(asked) === asked ? '' : inDocumentWords(asked)}`.trim();
  const all = words(text.toLowerCase());
  const digits = all.flatMap((w) => w.match(/\p{N}+/gu) ?? []).filter((d) => d.length === 1);
  const letters = all.filter((w) => /^[a-z]$/.test(w) && w !== 'a' && w !== 'i');
  const keys = keywords(text);
  const forms = [...keys.flatMap((k) => [...verbForms(k), ...spellings(k), ...katakanaForms(k)]), ...glossaryIn(text)];
  const symbols = letterSymbols(text).map((f) => f.slice(1));
  // A dotted name (`LunarCalendar.solarToLunar`) is searched whole too: PostgreSQL's parser reads
  // it as one token, not as its words; SQLite reads it as the phrase of its words.
  // Not a name ending like a file or a site (Node.js, nsswitch.conf, socket.io): those are their words.
  const dotted = (text.toLowerCase().match(/[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)+/gu) ?? []).filter(
    (name) => !NOT_MEMBER.test(name),
  );
  // A method named in words ("to hiragana" for toHiragana), last: such a join may name nothing.
  return [...new Set([...keys, ...digits, ...letters, ...symbols, ...forms, ...dotted, ...methodNames(text)])].slice(
    0,
    32,
  );
}

/**
 * The words a chunk is matched by: the search words, and for "install" the package managers, whose
 * commands need not say it (`npm i dedent`, `yarn add dedent`).
 */
export function matchWords(asked: string): string[] {
  const words = searchWords(asked);
  return words.some((w) => /^install/.test(w)) ? [...new Set([...words, ...INSTALLERS])] : words;
}

const INSTALLERS = ['npm', 'yarn', 'pnpm'];

const NOT_MEMBER = /\.(?:[cm]?[jt]sx?|json|md|html?|css|io|com|org|net|conf|txt|py|rb|go|sh|ya?ml|xml)$/;

/**
 * One-letter symbols as written, lower-cased: options ("-a", "-I") and format directives ("%i"):
 * even "a" and "i" are searched then.
 */
export const letterSymbols = (text: string) =>
  [...text.matchAll(/(?<![\p{L}\p{N}%-])([-%]\p{L})(?![\p{L}\p{N}])/gu)].map((m) => m[1].toLowerCase());
