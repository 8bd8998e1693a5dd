import { answerIntent, comparedSubjects, FORM_WORDS, questionParts } from './answer-intent.js';
import { frameOf, type AnswerFrame } from './answer-frames.js';
import {
  asksForCode,
  asksForWhole,
  asksForFigure,
  coverage,
  literalsOf,
  meanLength,
  rarity,
  scoreUnit,
  stemsOf,
  tokensOf,
  unitsOf,
  type Unit,
} from './answer-units.js';
import { namedTitleWords } from './retrieval/named-sources.js';
import type { Cell } from '../text/markdown.js';

/**
 * The local grounded writer: one implementation, used by the gateway's local grounded model (for
 * chat, conversations and /api/v1 alike) and by the answer writer when no gateway exists. It
 * answers each part of the question in the form asked for (answer-intent.ts) from the sources'
 * own units — a sentence, a table cell, a `name: value` line, a code block — quoted as written,
 * says each thing once and cites it with its source's marker. When nothing retrieved is about the
 * question it says so, in the question's language (answer-frames.ts).
 */

/** A retrieved passage the answer may cite as [ref]. */
export interface Passage {
  ref: number;
  title: string;
  link: string;
  content: string;
}

export interface ExtractiveRequest {
  query: string;
  passages: Passage[];
  /** Earlier questions of a thread: their words weigh a little, so a follow-up stays on topic. */
  history: Array<{ query: string; answer: string | null }>;
}

const MAX_SENTENCES = 3;
const MAX_POINTS = 6;
const MAX_ROWS = 6;
/** Below this share of the question's words, the best passage is about something else. */
const MIN_COVERAGE = 0.5;

const FORM_STEMS = new Set([...FORM_WORDS].map((w) => stemsOf(w)[0] ?? w));
/** The stemmed words a question searches the sources for: not those naming the answer's form ("summarise"). */
function wanted(text: string): Set<string> {
  const kept = text.split(/\s+/).filter((t) => !FORM_WORDS.has(t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')));
  return new Set(stemsOf(kept.join(' ')).filter((w) => !FORM_STEMS.has(w)));
}

/** Deterministic: the same sources and question give the same answer. */
export function extractiveAnswer(req: ExtractiveRequest): string {
  const frame = frameOf(req.query);
  if (req.passages.length === 0) return frame.noSources(req.query.trim());
  const units = unitsOf(req.passages);
  const want = wanted(req.query);
  const context = new Set(stemsOf(req.history.map((h) => h.query).join(' ')));
  const titles = new Map(req.passages.map((p) => [p.ref, stemsOf(p.title)]));
  const best = Math.max(0, ...units.map((u) => coverage(u, want, titles.get(u.ref) ?? [])));
  // A question with no words of its own ("Summarise this") is about the whole LiveDoc.
  if (want.size > 0 && best < MIN_COVERAGE) return frame.notCovered(topicsOf(req.passages, units));
  const intent = answerIntent(req.query);
  const q: Question = {
    whole: req.query,
    tokens: new Set(tokensOf(req.query)),
    idf: rarity(units),
    meanLength: meanLength(units),
    literals: literalsOf(req.query),
    context,
    titles,
    named: namedSources(req.passages, want),
    frame,
    units,
  };
  const written =
    (intent === 'compare' && compare(units, q)) ||
    (intent === 'summary' && summary(units, req.passages, want, frame)) ||
    (intent === 'list' && list(units, want, req.passages, q)) ||
    answer(units, q);
  return written || frame.notCovered(topicsOf(req.passages, units));
}

/** What the retrieved passages are about: their sources' titles and sections, each once. */
function topicsOf(passages: Passage[], units: Unit[]): string[] {
  const out: string[] = [];
  for (const p of passages) {
    const sections = [...new Set(units.filter((u) => u.ref === p.ref && u.section).map((u) => u.section))].slice(0, 2);
    const topic = sections.length ? `${p.title} (${sections.join(', ')})` : p.title;
    if (!out.includes(topic)) out.push(topic);
  }
  return out.slice(0, 4);
}

/** The sentence as it ends an answer line: with its full stop and its citation. */
export const cite = (markdown: string, ref: number) =>
  `${/[.!?:。！？：]$/.test(markdown) ? markdown : /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(markdown) ? `${markdown}。` : `${markdown}.`} [${ref}]`;

function tableMarkdown(header: Cell[], rows: Cell[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(header.map((c) => c.markdown)),
    line(header.map(() => '---')),
    ...rows.map((r) => line(header.map((_, i) => cellAt(r, header, i)?.markdown ?? ''))),
  ].join('\n');
}

/**
 * A row's cell under header column i. Cells align from the left, as in GFM, except where the
 * header shows a label spanning two columns (an empty second header cell): a short row there lost
 * its first cells to a label spanning rows above it, so its cells belong to the last columns.
 */
function cellAt(row: Cell[], header: Cell[], i: number): Cell | undefined {
  const shift = header.length > row.length && header[1]?.text === '' ? header.length - row.length : 0;
  return i - shift >= 0 ? row[i - shift] : undefined;
}

/**
 * The cell of a row the question names: all its words are in the question (the longest such cell),
 * and they are not just its source's title ("debug" in debug's own table names no row).
 */
function namedCell(u: Unit, q: Question): number {
  const title = new Set(q.titles.get(u.ref) ?? []);
  let at = -1;
  let size = 0;
  (u.cells ?? []).forEach((c, i) => {
    const t = tokensOf(c.text);
    const stems = stemsOf(c.text);
    const onlyTitle = stems.length > 0 && stems.every((w) => title.has(w));
    if (t.length > size && t.every((w) => q.tokens.has(w)) && !onlyTitle) [at, size] = [i, t.length];
  });
  return at;
}

/** The columns a question part asks for: header cells sharing its words ("end of LTS" ↔ End Of LTS Date). */
function askedColumns(u: Unit, want: Set<string>, skip: number, asksWhen: boolean): number[] {
  const header = u.header ?? [];
  const scores = header.map((h, i) => {
    if (i === skip) return 0;
    const stems = stemsOf(h.text);
    let s = stems.filter((w) => want.has(w)).length;
    if (asksWhen && /\b(date|time|when|day)\b|日期|时间|日付/i.test(h.text)) s += 0.5;
    return s;
  });
  const top = Math.max(0, ...scores);
  return top < 1 ? [] : scores.flatMap((s, i) => (s === top ? [i] : []));
}

interface Part {
  lines: string[];
  used: Unit[];
  /** Quoted sentences (which the frame's lead-in introduces), not a cell, row, line or code. */
  sentences: boolean;
}

/** What every part of one question shares: its words' rarity, its code-like words, the thread. */
interface Question {
  whole: string;
  tokens: Set<string>;
  idf: Map<string, number>;
  meanLength: number;
  literals: string[];
  context: Set<string>;
  titles: Map<number, string[]>;
  /** The sources the question names by a word of their title, and those words; null when it names none or all. */
  named: { refs: Set<number>; words: Set<string> } | null;
  frame: AnswerFrame;
  units: Unit[];
}

/**
 * The sources a question names by a word of their title ("winston's level option" names winston):
 * null when it names none of them, or every one (then naming tells nothing apart).
 */
function namedSources(passages: Passage[], want: Set<string>): Question['named'] {
  const refs = new Set<number>();
  const words = new Set<string>();
  for (const p of passages) {
    const hit = namedTitleWords(want, p.title);
    if (hit.length === 0) continue;
    refs.add(p.ref);
    hit.forEach((w) => words.add(w));
  }
  const all = new Set(passages.map((p) => p.ref));
  return refs.size === 0 || refs.size === all.size ? null : { refs, words };
}

/** A unit from a source the question does not name, and not naming that source itself, answers something else. */
const offSource = (u: Unit, q: Question) =>
  q.named !== null && !q.named.refs.has(u.ref) && !u.stems.some((w) => q.named!.words.has(w));

/** A table row answering: the cells the part asks for as sentences, else the row as a small table. */
function rowAnswer(top: Unit, ranked: Unit[], want: Set<string>, part: string, q: Question): Part {
  const header = top.header ?? [];
  const named = namedCell(top, q);
  const cols = named >= 0 ? askedColumns(top, want, named, /\bwhen\b|何时|什么时候|いつ/i.test(part)) : [];
  if (named >= 0 && cols.length > 0) {
    const rowName = top.cells![named].markdown;
    const lines = cols
      .map((i) => ({ i, cell: cellAt(top.cells!, header, i) }))
      .filter((x) => x.cell && x.cell.text)
      .map((x) => cite(q.frame.cell(rowName, header[x.i].markdown, x.cell!.markdown), top.ref));
    if (lines.length) return { lines, used: [top], sentences: false };
  }
  // No single cell: the rows that match as well, as a small table with the header.
  const best = scores.get(top) ?? 0;
  const rows = ranked
    .filter((u) => u.kind === 'row' && u.table === top.table && (scores.get(u) ?? 0) >= best * 0.75)
    .slice(0, MAX_ROWS)
    .sort((a, b) => a.order - b.order);
  const table = tableMarkdown(
    header,
    rows.map((r) => r.cells!),
  );
  // The sentence leading into the table in its section says what the table is about.
  const first = Math.min(...ranked.filter((u) => u.table === top.table && u.ref === top.ref).map((u) => u.order));
  const intro = q.units.find(
    (u) =>
      u.kind === 'sentence' &&
      u.ref === top.ref &&
      u.section === top.section &&
      u.order < first &&
      first - u.order <= 2,
  );
  return {
    // The lead-in is a line of its own, so a second part answered from the same table does not repeat it.
    lines: intro ? [cite(intro.markdown.replace(/:$/, '.'), intro.ref), table] : [`${table}\n\n[${top.ref}]`],
    used: rows,
    sentences: false,
  };
}

const scores = new WeakMap<Unit, number>();

/** A sentence that leads into what follows ("… can be recovered using", "… like this:") is not said alone. */
const leadsOn = (u: Unit) => u.kind === 'sentence' && !/[.!?。！？)）"”]$/.test(u.text.trim());

/** One part of a question answered from its best units. */
function answerPart(units: Unit[], want: Set<string>, part: string, q: Question, used: Set<Unit>): Part | null {
  const asks = {
    figure: asksForFigure(part),
    code: asksForCode(part),
    whole: asksForWhole(part),
    literals: q.literals,
    numbers: [...q.tokens].filter((t) => /\d/.test(t)),
    idf: q.idf,
    meanLength: q.meanLength,
  };
  const ranked = units
    .filter((u) => !used.has(u))
    .map((u) => {
      // A row the question names by one of its cells ("pino 8.x", "%j") is what it asks about.
      const named = u.kind === 'row' ? namedCell(u, q) : -1;
      const bonus = named >= 0 ? 4 + 3 * tokensOf(u.cells![named].text).length : 0;
      const score = scoreUnit(u, want, q.context, asks) + bonus;
      scores.set(u, (offSource(u, q) ? score / 2 : score) - u.ref * 0.01);
      return u;
    })
    .filter((u) => scores.get(u)! > 0)
    .sort((a, b) => scores.get(b)! - scores.get(a)! || a.order - b.order);
  const top = ranked[0];
  if (!top) return null;
  const best = scores.get(top)!;
  if (top.kind === 'row') return rowAnswer(top, ranked, want, part, q);
  if (top.kind === 'line') {
    // Lines of one block (benchmark output, a settings list) that match as well go together.
    const lines = ranked
      .filter((u) => u.kind === 'line' && u.ref === top.ref && scores.get(u)! >= best * 0.8)
      .slice(0, 4)
      .sort((a, b) => a.order - b.order);
    return { lines: [lines.map((u) => `${u.markdown} [${u.ref}]`).join(' ')], used: lines, sentences: false };
  }
  if (top.kind === 'code') {
    const lead = units.find((u) => u.kind === 'sentence' && u.ref === top.ref && u.order === top.order - 1);
    const out = lead ? [cite(lead.markdown, lead.ref)] : [];
    out.push(`${top.markdown}\n\n[${top.ref}]`);
    return { lines: out, used: lead ? [lead, top] : [top], sentences: false };
  }
  const picked = ranked.filter((u) => u.kind === 'sentence' && scores.get(u)! >= best * 0.6).slice(0, MAX_SENTENCES);
  // A chosen sentence that leads on brings what it leads into (the command after "… using").
  for (const u of [...picked]) {
    if (!leadsOn(u)) continue;
    const next = units.find((n) => n.ref === u.ref && n.order === u.order + 1);
    if (next && !picked.includes(next) && next.text.split('\n').length <= 12) picked.push(next);
  }
  // "How do I …": the code block a chosen sentence leads into is the answer's command.
  if (asks.code) {
    // Within two units after it, in its section ("… for an option." "Example file: …" then the code).
    const code = units.find(
      (c) =>
        c.kind === 'code' &&
        picked.some((p) => p.ref === c.ref && p.section === c.section && c.order > p.order && c.order - p.order <= 2),
    );
    if (code && !picked.includes(code) && code.text.split('\n').length <= 12) picked.push(code);
  }
  picked.sort((a, b) => a.order - b.order);
  const lines: string[] = [];
  let prose: string[] = [];
  for (const u of picked) {
    if (u.kind === 'sentence') {
      prose.push(cite(u.markdown, u.ref));
      continue;
    }
    if (prose.length) lines.push(prose.join(' '));
    prose = [];
    lines.push(u.kind === 'code' ? `${u.markdown}\n\n[${u.ref}]` : cite(u.markdown, u.ref));
  }
  if (prose.length) lines.push(prose.join(' '));
  return { lines, used: picked, sentences: true };
}

/** Each part of the question answered in order ("X and when Y?"), under the frame's lead-in when it quotes sentences. */
function answer(units: Unit[], q: Question): string | null {
  const parts = questionParts(q.whole);
  const whole = wanted(q.whole);
  const used = new Set<Unit>();
  const out: string[] = [];
  let first: Part | null = null;
  for (const part of parts) {
    const want = wanted(part);
    // A later part ("when did its LTS end") keeps the subject named before it as context.
    const written = answerPart(units, want.size ? want : whole, parts.length > 1 ? part : q.whole, q, used);
    if (!written) continue;
    first ??= written;
    // A row may answer several parts (its release date, then its end of support): rows stay available.
    written.used.filter((u) => u.kind !== 'row').forEach((u) => used.add(u));
    for (const line of written.lines) if (!out.includes(line)) out.push(line);
  }
  if (out.length === 0) return null;
  if (first?.sentences) return `${q.frame.lead} ${out.join('\n\n')}`;
  // In Chinese or Japanese the answer opens in that language even when it opens with a quote.
  if (q.frame.lang !== 'en' && !out[0].startsWith(q.frame.lead.slice(0, 4)))
    return `${q.frame.lead}\n\n${out.join('\n\n')}`;
  return out.join('\n\n');
}

/** The main points: the lead sentence of each section, matching ones first, one source after another. */
function summary(units: Unit[], passages: Passage[], want: Set<string>, frame: AnswerFrame): string | null {
  const named = new Map(passages.map((p) => [p.ref, stemsOf(p.title).filter((w) => want.has(w)).length]));
  const most = Math.max(0, ...named.values());
  const inFocus = (u: Unit) => most === 0 || named.get(u.ref) === most;
  const sentences = units.filter((u) => u.kind === 'sentence');
  const leads = sentences.filter((u) => u.lead && inFocus(u));
  const matching =
    most > 0
      ? []
      : sentences.filter((u) => scoreUnit(u, want) > 0).sort((a, b) => scoreUnit(b, want) - scoreUnit(a, want));
  const points = [...new Set([...matching.slice(0, 3), ...leads])]
    .slice(0, MAX_POINTS)
    .sort((a, b) => a.order - b.order);
  if (points.length === 0) return null;
  return `${frame.summary}\n\n${points.map((u) => `- ${cite(u.markdown, u.ref)}`).join('\n')}`;
}

/** A list: the section titled with what is asked for (its items, rows or lines), else the matching items. */
function list(units: Unit[], want: Set<string>, passages: Passage[], q: Question): string | null {
  const query = q.whole;
  const titleWords = new Set(stemsOf(passages.map((p) => p.title).join(' ')));
  const focus = [...want].filter((w) => !titleWords.has(w));
  let section: Unit | undefined;
  let hits = 0;
  for (const u of units) {
    const n = u.sectionStems.filter((w) => focus.includes(w)).length;
    if (n > hits) [section, hits] = [u, n];
  }
  const under = section ? units.filter((u) => u.ref === section.ref && u.section === section.section) : [];
  const rows = under.filter((u) => u.kind === 'row');
  if (rows.length)
    return `${tableMarkdown(
      rows[0].header!,
      rows.filter((r) => r.table === rows[0].table).map((r) => r.cells!),
    )}\n\n[${rows[0].ref}]`;
  // Blocks of lines under one heading (npm's levels, then syslog's): those whose lead-in holds most
  // of the question's words ("npm logging levels are prioritized…").
  const allLines = under.filter((u) => u.kind === 'line');
  const fit = (u: Unit) => u.contextStems.filter((w) => focus.includes(w)).length;
  const most = Math.max(0, ...allLines.map(fit));
  const lines = allLines.filter((u) => fit(u) === most);
  if (lines.length >= 2) return lines.map((u) => `- ${u.markdown} [${u.ref}]`).join('\n');
  const items = under.filter((u) => u.kind === 'sentence');
  if (items.length)
    return items
      .slice(0, MAX_POINTS + 2)
      .map((u) => `- ${cite(u.markdown, u.ref)}`)
      .join('\n');
  const asks = { figure: asksForFigure(query), code: asksForCode(query), literals: q.literals, idf: q.idf };
  const ranked = units
    .map((u) => ({ u, s: scoreUnit(u, want, new Set(), asks) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s);
  const top = ranked[0]?.s ?? 0;
  const picked = ranked
    .filter((x) => x.s >= top * 0.6 && x.u.kind !== 'code')
    .slice(0, MAX_POINTS + 2)
    .map((x) => x.u)
    .sort((a, b) => a.order - b.order);
  if (picked.length === 0) return null;
  return picked.map((u) => `- ${cite(u.markdown, u.ref)}`).join('\n');
}

/**
 * A comparison: each subject's best units under its name. A subject's own words are those no
 * other subject has ("Pino's BASIC average" vs "Winston's": pino, basic, average vs winston); a
 * subject nothing retrieved speaks of is said to be missing, never "your sources say nothing".
 */
function compare(units: Unit[], q: Question): string | null {
  const { whole: query, frame } = q;
  const subjects = comparedSubjects(query);
  if (subjects.length < 2) return null;
  const stems = subjects.map((s) => new Set(stemsOf(s).filter((w) => !FORM_WORDS.has(w))));
  const own = stems.map((set, i) => new Set([...set].filter((w) => !stems.some((o, j) => j !== i && o.has(w)))));
  const shared = new Set([...wanted(query)].filter((w) => !own.some((o) => o.has(w))));
  const asks = { figure: asksForFigure(query), code: false, idf: q.idf };
  const used = new Set<Unit>();
  const parts: string[] = [];
  const chosen: Unit[][] = [];
  subjects.forEach((subject, i) => {
    const name = own[i].size ? own[i] : stems[i];
    const ranked = units
      .filter((u) => !used.has(u) && u.kind !== 'code' && u.stems.some((w) => name.has(w)))
      .map((u) => {
        // The subject's code-like words (`--fast`) found as written weigh most.
        const literals = literalsOf(subject);
        return { u, s: scoreUnit(u, new Set([...name, ...shared]), new Set(), { ...asks, literals }) };
      })
      .sort((a, b) => b.s - a.s || a.u.order - b.u.order);
    const top = ranked[0]?.s ?? 0;
    const best = ranked
      .filter((x) => x.s >= top * 0.8)
      .slice(0, 2)
      .map((x) => x.u)
      .sort((a, b) => a.order - b.order);
    best.forEach((u) => used.add(u));
    chosen.push(best);
    const said = best
      .map((u) =>
        u.kind === 'row' ? rowLine(u) : u.kind === 'line' ? `${u.markdown} [${u.ref}]` : cite(u.markdown, u.ref),
      )
      .join(' ');
    parts.push(`- **${subject}**: ${said || frame.nothingOn(subject)}`);
  });
  if (used.size === 0) return null;
  // Every subject answered by a row of one table: those rows side by side, as a table.
  const rows = chosen.map((c) => c[0]);
  if (rows.every((r) => r?.kind === 'row' && r.table === rows[0].table && r.ref === rows[0].ref)) {
    const sorted = [...new Set(rows)].sort((a, b) => a.order - b.order);
    return `${tableMarkdown(
      rows[0].header!,
      sorted.map((r) => r.cells!),
    )}\n\n[${rows[0].ref}]`;
  }
  return parts.join('\n');
}

/** A table row said on one line: "Header: cell; Header: cell [n]". */
function rowLine(u: Unit): string {
  const header = u.header ?? [];
  const cells = header.map((h, i) => ({ h, c: cellAt(u.cells ?? [], header, i) })).filter((x) => x.c?.text);
  return `${cells.map((x) => `${x.h.markdown}: ${x.c!.markdown}`).join('; ')} [${u.ref}]`;
}
