import { stemmer } from 'stemmer';
import { keywords } from './retrieval/fts-query.js';
import type { Passage } from './grounded-writer.js';

/** One thing a source says: a sentence (or a list item), or a whole Markdown table. */
export interface Unit {
  kind: 'sentence' | 'table';
  text: string;
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
  /** Holds a figure (a digit): what a "how long / how much" question is after. */
  figure: boolean;
  /** Tables: the header cells and the body rows. */
  header?: string[];
  rows?: string[][];
}

export const stemsOf = (text: string) => keywords(text).map((w) => stemmer(w));

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

function clean(s: string): string {
  return s
    .replace(/[*_`>]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[-*+]\s+|^\d+[.)]\s+/, '')
    .trim();
}

function sentencesOf(block: string): Array<{ text: string; item: boolean }> {
  const out: Array<{ text: string; item: boolean }> = [];
  for (const line of block.split(/\n(?=\s*(?:[-*+]|\d+[.)])\s)/)) {
    const item = /^\s*(?:[-*+]|\d+[.)])\s/.test(line);
    const parts = item ? [line] : clean(line).split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/);
    for (const p of parts) {
      const text = clean(p);
      if (text.length >= 10 && text.length <= 600) out.push({ text, item });
    }
  }
  return out;
}

/**
 * The passages as units, each said once: a sentence repeated within or across sources (the same
 * page twice, a notice on every page) is kept at its first place only.
 */
export function unitsOf(passages: Passage[]): Unit[] {
  const units: Unit[] = [];
  const seen = new Set<string>();
  let order = 0;
  for (const p of passages) {
    let section = '';
    let lead = true;
    for (const block of p.content.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
      const trimmed = block.trim();
      const heading = /^#{1,6}\s+(.+)$/.exec(trimmed);
      if (heading && !trimmed.includes('\n')) {
        section = heading[1].trim();
        lead = true;
        continue;
      }
      const lines = trimmed.split('\n');
      if (lines.length >= 2 && lines.every((l) => l.trim().startsWith('|'))) {
        const [head, , ...body] = lines.map(cellsOf);
        const key = `table:${trimmed.replace(/\s+/g, ' ').toLowerCase()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        units.push({
          kind: 'table',
          text: trimmed,
          ref: p.ref,
          order: order++,
          section,
          lead: false,
          item: false,
          stems: stemsOf(trimmed),
          sectionStems: stemsOf(section),
          figure: /\d/.test(trimmed),
          header: head,
          rows: body,
        });
        continue;
      }
      for (const s of sentencesOf(trimmed)) {
        const key = s.text
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim();
        if (seen.has(key)) continue;
        seen.add(key);
        units.push({
          kind: 'sentence',
          text: s.text,
          ref: p.ref,
          order: order++,
          section,
          lead,
          item: s.item,
          stems: stemsOf(s.text),
          sectionStems: stemsOf(section),
          figure: /\d/.test(s.text),
        });
        lead = false;
      }
    }
  }
  return units;
}

/**
 * A unit's match with the wanted words: 2 per question word in its text, 1 per question word only
 * in its section's title, 0.5 per thread word. A question after a figure ("how long", "what does
 * it cost") counts a unit without one at half.
 */
export function scoreUnit(u: Unit, want: Set<string>, context: Set<string> = new Set(), wantsFigure = false): number {
  let score = 0;
  const own = new Set(u.stems);
  for (const w of own) score += want.has(w) ? 2 : context.has(w) ? 0.5 : 0;
  for (const w of new Set(u.sectionStems)) if (!own.has(w) && want.has(w)) score += 1;
  return wantsFigure && !u.figure ? score / 2 : score;
}

/** A question whose answer is a figure: a duration, an amount, a price, a date. */
export const asksForFigure = (query: string) =>
  /\b(how (long|much|many|often|soon|fast|big|old)|cost|costs|price|prices|pricing|fee|fees|when|what time|how many days)\b/i.test(
    query,
  );

/** The sentences of a table's section just before it (at most two): what the table is about. */
export function introOf(units: Unit[], table: Unit): Unit[] {
  return units.filter(
    (u) =>
      u.kind === 'sentence' &&
      u.ref === table.ref &&
      u.section === table.section &&
      u.order < table.order &&
      table.order - u.order <= 2,
  );
}

/** The sentence as it ends an answer line: with its full stop and its citation. */
export const cite = (text: string, ref: number) => `${/[.!?:]$/.test(text) ? text : `${text}.`} [${ref}]`;

/**
 * A table with only the rows that match (all of them when none or every row does). The sentences
 * that lead into it in its section come first, cited once; without them the citation goes under it.
 */
export function tableAnswer(u: Unit, want: Set<string>, intro: Unit[] | string = []): string {
  const rows = u.rows ?? [];
  const matching = rows.filter((r) => stemsOf(r.join(' ')).some((w) => want.has(w)));
  const keep = matching.length > 0 && matching.length < rows.length ? matching : rows;
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const header = u.header ?? [];
  const table = [line(header), line(header.map(() => '---')), ...keep.map(line)].join('\n');
  if (intro.length === 0) return `${table}\n\n[${u.ref}]`;
  // The lead-in reads as cited sentences of its own, so a reader that keeps only sentences keeps it.
  const lead =
    typeof intro === 'string'
      ? `${intro} [${u.ref}]:`
      : intro.map((s) => cite(s.text.replace(/:$/, '.'), s.ref)).join(' ');
  return `${lead}\n\n${table}`;
}
