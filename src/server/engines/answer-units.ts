import { stemmer } from 'stemmer';
import { keywords } from './retrieval/fts-query.js';
import type { Passage } from './grounded-writer.js';
import { isNavigation, markdownBlocks, type Cell } from '../text/markdown.js';
import { inlineSentences, words } from '../text/segment.js';

/**
 * One thing a source says, as the source says it: a sentence (or list item), a table row, a code
 * block, or a `name: value` line (benchmark output, a configuration default). `markdown` is what an
 * answer shows (code spans and links intact, code verbatim); `text` is what is matched.
 */
export interface Unit {
  kind: 'sentence' | 'row' | 'code' | 'line';
  text: string;
  markdown: string;
  ref: number;
  /** Order of appearance over all passages: ties and output keep the sources' own order. */
  order: number;
  /** The heading the unit sits under ('' when none). */
  section: string;
  /** The first unit of its section or passage: what a summary leads with. */
  lead: boolean;
  item: boolean;
  stems: string[];
  /** The section title's words: a sentence under "Exceptions" is about exceptions. */
  sectionStems: string[];
  /** Words around the unit: its paragraph, a code block's lead-in line, a line's block title, a row's header. */
  contextStems: string[];
  /** Holds a figure (a digit): what a "how long / how much" question is after. */
  figure: boolean;
  /** Holds code (a code span, a code block or line): what a "how do I" question is after. */
  code: boolean;
  /** Rows: the table's header and this row's cells; the table's id groups its rows. */
  header?: Cell[];
  cells?: Cell[];
  table?: number;
  /** Lines: the name and the value of a `name: value` line. */
  name?: string;
  value?: string;
}

/**
 * The stemmed keywords of a text. An identifier in camel case also gives its parts
 * ("BunyanDeepObj" is also bunyan, deep, obj), so a question naming a part finds it.
 */
export function stemsOf(text: string): string[] {
  const parts = (text.match(/\b[\p{L}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*/gu) ?? []).flatMap(
    (id) => id.match(/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu) ?? [],
  );
  const all = keywords(parts.length ? `${text} ${parts.join(' ')}` : text);
  return [...new Set(all.map((w) => stemmer(w)))];
}

/** A figure: a digit, or a number written as a word ("six months"). */
const hasFigure = (text: string) =>
  /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|million|billion|dozen|half)\b|[一二三四五六七八九十百千万亿]/i.test(
    text,
  );

/** Lower-cased word sequence of a text, for finding a cell's value named in a question. */
export const tokensOf = (text: string) => words(text.toLowerCase());

/** `name: value` (or `name = value`) with a short name: a figure or setting a question may ask for. */
const NAME_VALUE = /^\s*([\p{L}\p{N}_][\p{L}\p{N}_ .-]{0,59}?)\s*[:=]\s*(\S.{0,100}?)\s*,?\s*$/u;

/** A line of program code (a declaration, a statement ending in ; or {), not a `name: value` fact. */
const isStatement = (line: string) =>
  /^\s*(?:const|let|var|export|import|return|if|for|while|function|class)\b/.test(line) || /[;{(]\s*$/.test(line);

/**
 * The passages as units, each said once: a sentence repeated within or across sources (the same
 * page twice, a notice on every page) is kept at its first place only.
 */
export function unitsOf(passages: Passage[]): Unit[] {
  const units: Unit[] = [];
  const seen = new Set<string>();
  let order = 0;
  let tables = 0;
  for (const p of passages) {
    let lead = true;
    let lastSection = '';
    let previous = '';
    const blocks = markdownBlocks(p.content)
      .flatMap((b) => (b.kind === 'blockquote' ? b.children : [b]))
      .filter((b) => !isNavigation(b));
    for (const block of blocks) {
      const section = block.section.at(-1) ?? '';
      if (block.kind === 'heading') {
        lead = true;
        previous = '';
        continue;
      }
      if (section !== lastSection) [lead, lastSection] = [true, section];
      const base = { ref: p.ref, section, sectionStems: stemsOf(section), lead: false, item: false };
      const add = (
        u: Omit<Unit, 'order' | 'ref' | 'section' | 'sectionStems' | 'lead' | 'item'> & { item?: boolean },
      ) => {
        const key = `${u.kind}:${u.text.toLowerCase().replace(/\s+/g, ' ').trim()}`;
        if (seen.has(key)) return;
        seen.add(key);
        units.push({ ...base, item: false, ...u, order: order++, lead });
        lead = false;
      };
      switch (block.kind) {
        case 'table': {
          const id = tables++;
          const headerText = block.header.map((c) => c.text).join(' ');
          for (const cells of block.rows) {
            const text = cells.map((c) => c.text).join(' | ');
            add({
              kind: 'row',
              text,
              markdown: text,
              stems: stemsOf(text),
              contextStems: stemsOf(`${headerText} ${previous}`),
              figure: hasFigure(text),
              code: cells.some((c) => c.markdown.includes('`')),
              header: block.header,
              cells,
              table: id,
            });
          }
          break;
        }
        case 'code': {
          // A code block is quoted whole; its `name: value` lines are also facts of their own,
          // under the block's first line when that line is a title ("BASIC benchmark averages").
          const lines = block.value.split('\n').filter((l) => l.trim());
          add({
            kind: 'code',
            text: block.value,
            markdown: block.markdown,
            stems: stemsOf(block.value),
            contextStems: stemsOf(previous),
            figure: hasFigure(block.value),
            code: true,
          });
          const title = lines[0] && !NAME_VALUE.test(lines[0]) ? lines[0] : '';
          for (const line of lines) {
            const m = NAME_VALUE.exec(line);
            if (!m || line === title || isStatement(line)) continue;
            add({
              kind: 'line',
              text: line.trim(),
              markdown: `\`${line.trim()}\``,
              stems: stemsOf(line),
              contextStems: stemsOf(`${title} ${previous}`),
              figure: hasFigure(m[2]),
              code: true,
              name: m[1].trim(),
              value: m[2].trim(),
            });
          }
          break;
        }
        case 'paragraph':
        case 'listItem': {
          // A short `name: value` paragraph (a settings list or program output that lost its code
          // block on the way) is a line; the prose before it stays its context.
          const m = block.text.length <= 80 ? NAME_VALUE.exec(block.text) : null;
          if (m && !/[.!?。]$/.test(block.text.trim())) {
            add({
              kind: 'line',
              text: block.text.trim(),
              markdown: block.markdown,
              stems: stemsOf(block.text),
              contextStems: stemsOf(previous),
              figure: hasFigure(m[2]),
              code: block.markdown.includes('`'),
              name: m[1].trim(),
              value: m[2].trim(),
              item: block.kind === 'listItem',
            });
            break;
          }
          const sentences = block.inline
            ? inlineSentences(block.inline)
            : [{ text: block.text, markdown: block.markdown }];
          const context = stemsOf(block.text);
          for (const s of sentences) {
            if (!/[\p{L}\p{N}]/u.test(s.text)) continue;
            add({
              kind: 'sentence',
              text: s.text,
              markdown: s.markdown,
              stems: stemsOf(s.text),
              contextStems: context,
              figure: hasFigure(s.text),
              code: s.markdown.includes('`'),
              item: block.kind === 'listItem',
            });
          }
          previous = block.text;
          break;
        }
        default:
          break;
      }
    }
  }
  return units;
}

/** What a question asks for beyond its words. */
export interface Asks {
  figure?: boolean;
  code?: boolean;
  /** Code-like words of the question (`--fast`, `exitOnError`, `8.x`, `%j`): found as written, they weigh most. */
  literals?: string[];
  /** The numbers of the question, as word tokens. */
  numbers?: string[];
  /** How rare each word is among the units (inverse document frequency): rare words weigh more. */
  idf?: Map<string, number>;
  /** The units' mean number of distinct words: a unit shorter than it says what it matches more directly. */
  meanLength?: number;
  /** The question asks for the whole of something ("all", "every", "everything"). */
  whole?: boolean;
}

/** A question after the whole of something: "enable all debug output", "every file", "所有". */
export const asksForWhole = (query: string) => /\b(all|every|everything|any)\b|所有|全部|すべて|全て/i.test(query);

/** In code, a `*` standing alone or in a pattern is "all" (`DEBUG=*`, `SELECT *`, `src/**`). */
const WILDCARD_CODE = /`[^`\n]*\*[^`\n]*`/;

/** The mean number of distinct words of the units. */
export const meanLength = (units: Unit[]) =>
  units.length ? units.reduce((n, u) => n + new Set(u.stems).size, 0) / units.length : 1;

/** Code-like words of a question: with a mark inside or before them, or in camel case. */
export function literalsOf(query: string): string[] {
  return (query.match(/[^\s"'`“”‘’?？,，()（）]+/g) ?? [])
    .map((t) => t.replace(/[.:;!。：；！]+$/, '').replace(/(?:'s|’s)$/, ''))
    .filter(
      (t) => t.length >= 2 && (/[-=#%./_@$<>]/.test(t.replace(/^\p{L}+-\p{L}+$/u, '')) || /\p{Ll}\p{Lu}/u.test(t)),
    )
    .filter((t) => /[\p{L}\p{N}]/u.test(t));
}

/** Word rarity over the units: ln(1 + N / (1 + units holding the word)). */
export function rarity(units: Unit[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const u of units) for (const w of new Set(u.stems)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = units.length;
  return new Map([...df].map(([w, d]) => [w, Math.log(1 + n / (1 + d))]));
}

/**
 * A unit's match with the wanted words, each weighted by its rarity: twice for a word in its text,
 * once for a word in its section's title or its context (the section counts even when the text has
 * the word: "install" under "Installation"), a half for a thread word. A long code block's own words
 * (identifiers, comments) count once. A code-like word of the question found as written adds most.
 * A question after a figure counts a unit without one at half; one after a command counts a unit
 * without code at two thirds.
 */
export function scoreUnit(u: Unit, want: Set<string>, context: Set<string> = new Set(), asks: Asks = {}): number {
  const weightOf = (w: string) => asks.idf?.get(w) ?? 1;
  let score = 0;
  const own = new Set(u.stems);
  const weight = u.kind === 'code' && u.text.split('\n').length > 3 ? 1 : 2;
  // Words matched in a short unit count more than the same words in a long one (as bm25 normalises length).
  const density = asks.meanLength ? 2 / (1 + Math.sqrt(Math.max(own.size, 1) / asks.meanLength)) : 1;
  for (const w of own) score += want.has(w) ? weight * weightOf(w) * density : context.has(w) ? 0.5 * weightOf(w) : 0;
  for (const w of new Set(u.sectionStems)) if (want.has(w)) score += weightOf(w);
  for (const w of new Set(u.contextStems)) if (!own.has(w) && want.has(w)) score += weightOf(w);
  const text = u.text.toLowerCase();
  for (const lit of asks.literals ?? []) if (text.includes(lit.toLowerCase())) score += 4;
  // A number the question names ("priority 4", "pino 9.x") is as specific as a code-like word.
  if (asks.numbers?.length) {
    const tokens = new Set(tokensOf(u.text));
    for (const n of asks.numbers) if (tokens.has(n)) score += 5;
  }
  // A question after the whole of something, answered by a wildcard in code: the sources say
  // "to run everything … use `DEBUG=*`", not "all".
  if (asks.whole && score > 0 && WILDCARD_CODE.test(u.markdown)) score += 4;
  if (asks.figure && !u.figure) score /= 2;
  if (asks.code && !u.code) score *= 2 / 3;
  return score;
}

/** The share of the wanted words a unit, its context, its section and its source's title hold. */
export function coverage(u: Unit, want: Set<string>, titleStems: string[]): number {
  if (want.size === 0) return 0;
  const have = new Set([...u.stems, ...u.contextStems, ...u.sectionStems, ...titleStems]);
  return [...want].filter((w) => have.has(w)).length / want.size;
}

/** A question whose answer is a figure: a duration, an amount, a price, a date. */
export const asksForFigure = (query: string) =>
  /\b(how (long|much|many|often|soon|fast|big|small|old)|cost|costs|price|prices|pricing|fee|fees|when|what time|how many days|which uid|what uid)\b|多少|几|多久|何時|いくら|いつ/i.test(
    query,
  );

/** A question after a command or code: "how do I", "how can I", "which command", "如何", "どうやって". */
export const asksForCode = (query: string) =>
  /\b(how (do|can|should) (i|we|you)|how to|command|syntax|flag|option)\b|如何|怎么|怎样|どうやって|方法/i.test(query);
