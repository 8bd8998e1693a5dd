import { termsOf } from '../../text/terms.js';
import { inlineMarkdown } from '../../text/markdown-tree.js';
import { looksLikeCode, looksLikeCommand, pointsBack } from '../../text/statements.js';
import { tableMarkdown } from '../../text/units.js';
import { isSpaceless } from '../../text/segment.js';
import type { AnswerFrame } from '../answer-frames.js';
import { PARAMS } from './model-params.js';
import { asksWhatItIs, groupOf, score, type Query, type RankedUnit, type UnitIndex } from './rank.js';

/** A unit as an answer says it: its lines (each cited) and the units it quoted. */
export interface Said {
  lines: string[];
  used: RankedUnit[];
  /** Quoted prose (which the frame's lead-in introduces), not a cell, a row, a line or code. */
  prose: boolean;
}

/**
 * A quote as it ends a sentence: with its full stop (。 after Chinese or Japanese), read before the
 * marks and brackets that close it ("（例如：鼠标 -> 滑鼠）" takes 。).
 */
const stopped = (markdown: string) =>
  /[.!?:;,。！？：；，、][*_)）」』”"']*$/.test(markdown)
    ? markdown
    : /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}][*_)）」』”"']*$/u.test(markdown)
      ? `${markdown}。`
      : `${markdown}.`;

/** A quote as it ends an answer line: with its full stop and its citation. */
export const cite = (markdown: string, ref: number) => `${stopped(markdown)} [${ref}]`;

/** A block (code, a table) cited on the line after it, so the block stays verbatim. */
const citeBlock = (markdown: string, ref: number) => `${markdown}\n\n[${ref}]`;

/**
 * Plain text (a heading, a source's title) as Markdown that reads as that text: a backtick or an
 * asterisk in it is escaped, so a heading written `like this' opens no code span in the answer.
 */
export const asText = (text: string) => inlineMarkdown([{ type: 'text', value: text }]);

const MAX_BLOCK_LINES = 15;

/** A comment in code is prose about the code, not something to quote as the answer. */
export const COMMENT = /^\s*(?:\/\/|\/\*|\*|#(?!!)|--\s|<!--)/;
/** A comment saying what the line above it gives: `//=> 'patch'`, `# -> 3`. */
const RESULT_COMMENT = /^\s*(?:\/\/|#)\s*(?:=>|->|→)/;
/** A comment giving the value of the name the line above assigns: `const text = f(x);` over `// text = '…'`. */
const ASSIGNED = /^\s*(?:(?:const|let|var)\s+)?([\p{L}_$][\p{L}\p{N}_$]*)\s*=(?![=>])/u;
const VALUE_COMMENT = /^\s*(?:\/\/|#)\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*=(?![=>])/u;

/** Whether a line is a comment saying what the line above it gives. */
function isResultOf(line: string, above: string | undefined): boolean {
  if (RESULT_COMMENT.test(line)) return true;
  const name = VALUE_COMMENT.exec(line)?.[1];
  return name !== undefined && above !== undefined && !COMMENT.test(above) && ASSIGNED.exec(above)?.[1] === name;
}

/** Lines of code fenced as a block, the fence longer than any run of backticks in them. */
const fenced = (lines: string[], lang: string | null | undefined) => {
  const mark = '`'.repeat(Math.max(3, ...(lines.join('\n').match(/`+/g) ?? []).map((r) => r.length + 1)));
  return `${mark}${lang ?? ''}\n${lines.join('\n')}\n${mark}`;
};
const MAX_LIST = 20;

/** The units after `u` in its source, in order. */
const following = (u: RankedUnit, index: UnitIndex) => index.units.filter((x) => x.ref === u.ref && x.seq > u.seq);

/** The unit that answers best, the earlier of equals. */
const best = (units: RankedUnit[], q: Query, index: UnitIndex): RankedUnit | undefined =>
  [...units].sort((a, b) => score(b, q, index) - score(a, q, index) || a.seq - b.seq)[0];

/** Rows under their table's header, cited below the table. */
const tableOf = (rows: RankedUnit[]) =>
  citeBlock(
    tableMarkdown(
      rows[0].header ?? [],
      rows.map((r) => r.cells ?? []),
    ),
    rows[0].ref,
  );

/** A unit's lead-in as written, on one line: a hard break (`\` at a line's end) is a space too. */
const leadOf = (u: RankedUnit) => (u.leadInMarkdown ?? u.leadIn ?? '').replace(/(?<!\\)\\?\n/g, ' ');

const lineCount = (text: string) => text.split('\n').length;

/**
 * The bold name a list stands under ("**Francesc Rocher**" over "- Added HTML output (-H)."): what
 * its items are said of, as a definition's term is. A caption leading in ("**Parameters:**") names nothing.
 */
export const labelOf = (u: RankedUnit) =>
  u.kind === 'item' && /^\*\*[^*\n]{0,59}[^*\n:：]\*\*$/.test(u.leadInMarkdown ?? '') ? u.leadInMarkdown : undefined;

const touches = (text: string, q: Query) => termsOf(text).some((t) => q.has(t));

/** One unit said to answer a part: a cell, a row, a definition, a sentence, a code block or line. */
export function sayUnit(u: RankedUnit, q: Query, index: UnitIndex, frame: AnswerFrame): Said {
  switch (u.kind) {
    case 'row':
      // A row whose key another table also has (a benchmark per browser) is said with its section.
      return sayRow(
        u,
        q,
        frame,
        index.units.some((x) => x.kind === 'row' && x.ref === u.ref && x.group !== u.group && x.rowKey === u.rowKey),
      );
    case 'definition': {
      const description = u.descriptionMarkdown ?? '';
      // Its description's sentences are said with it.
      const own = groupOf(u, index);
      // Each of its paragraphs ends as a sentence ("Type: function. Default: undefined. …"), unless
      // the next goes on with it in lower case (groff broke tail's "reopen a FILE which has not").
      const paragraphs = description
        .split('\n\n')
        .map((p, i, all) => (i + 1 < all.length && /^\p{Ll}/u.test(all[i + 1]) ? p : stopped(p)))
        .join(' ');
      if (description.length <= PARAMS.maxChars)
        return { lines: [cite(`${u.termMarkdown}: ${paragraphs}`, u.ref)], used: [u, ...own], prose: false };
      // A long description: its sentence that best answers, under its term; its first when the
      // question asks only what the term is (a description opens by saying so).
      const sentences = groupOf(u, index, 'sentence');
      const sentence = asksWhatItIs(u, q) ? sentences[0] : best(sentences, q, index);
      return sentence
        ? sayUnit(sentence, q, index, frame)
        : { lines: [cite(u.termMarkdown ?? u.term ?? '', u.ref)], used: [u], prose: false };
    }
    case 'code': {
      if (lineCount(u.text) > MAX_BLOCK_LINES) {
        const line = best(groupOf(u, index, 'codeLine'), q, index);
        if (line) return sayUnit(line, q, index, frame);
      }
      // A long one only when it leads in by its colon ("… by saving this as /etc/dbus-1/system-local.conf:").
      const said =
        u.leadIn && (u.leadIn.length <= 200 || (u.leadIn.length <= PARAMS.maxChars && /[:：]$/.test(u.leadIn.trim())));
      const lead = said ? [cite(leadOf(u), u.ref)] : [];
      return { lines: [...lead, citeBlock(u.markdown, u.ref)], used: [u], prose: false };
    }
    case 'codeLine': {
      // A line of a short block is said with its block: a command reads with its neighbours.
      const block = groupOf(u, index, 'code')[0];
      if (block && lineCount(block.text) <= 6 && !u.name) return sayUnit(block, q, index, frame);
      // A comment and the code it describes are quoted together, never one without the other; a
      // statement left open ("cli.option('--type <type>', 'Choose a project type', {") to the line closing it.
      const commented = block && commentedExcerpt(u, index);
      const source = block?.text.split('\n') ?? [];
      const first = commented?.[0].line ?? u.line ?? 0;
      const last = Math.max(commented?.at(-1)!.line ?? 0, statementEnd(source, commented?.at(-1)!.line ?? u.line ?? 0));
      if (block && last > first) {
        // The block's lines from the excerpt's first to its last, as written: blank lines too.
        const code = fenced(source.slice(first, last + 1), block.lang);
        return { lines: [citeBlock(code, u.ref)], used: [block, ...(commented ?? [u])], prose: false };
      }
      return { lines: [`${u.markdown} [${u.ref}]`], used: [u], prose: false };
    }
    case 'item': {
      // An item is said with the items it leads into: its sub-items ("2019-09-03 : 1.0.9" and what
      // that release fixed), or those after it when it ends in a colon ("The constructor can throw errors:").
      const items = following(u, index).filter(
        (x) => x.group === u.group && x.leadIn === u.text && x.kind !== 'sentence',
      );
      // A sub-item of a setting's line ("`disabled`: `boolean`" over "`true`を指定するdictを無効化") is said under it.
      const setting = index.units.find(
        (x) => x.kind === 'field' && x.ref === u.ref && x.group === u.group && x.text === u.leadIn,
      );
      if (items.length === 0 && setting)
        return {
          lines: [cite(setting.markdown, u.ref), `- ${cite(u.markdown, u.ref)}`],
          used: [setting, u],
          prose: false,
        };
      const label = labelOf(u);
      if (items.length === 0 && label)
        return { lines: [cite(`${label}: ${u.markdown}`, u.ref)], used: [u], prose: false };
      if (items.length === 0) return { lines: [cite(u.markdown, u.ref)], used: [u], prose: true };
      const list = items.slice(0, MAX_LIST).map((x) => `- ${cite(x.markdown, x.ref)}`);
      const lead = /[:：]$/.test(u.text.trim()) ? `${u.markdown} [${u.ref}]` : cite(u.markdown, u.ref);
      return { lines: [lead, list.join('\n')], used: [u, ...items], prose: true };
    }
    case 'sentence': {
      // A sentence that points back ("This option is the default when decompressing", "It emits the
      // number of written bytes") follows the one it points to, the gap marked: a definition's first,
      // a paragraph's sentence before it. Alone it reads as about something else.
      const sentences = groupOf(u, index, 'sentence');
      // A question asking only what a term is is answered by its description's opening.
      if (u.term && sentences[0] !== u && asksWhatItIs(u, q)) return sayUnit(sentences[0], q, index, frame);
      const first = u.term ? sentences[0] : sentences[sentences.indexOf(u) - 1];
      const later = first !== undefined && first !== u && pointsBack(u.text);
      const opening = later ? `${first.markdown} ${first.seq + 1 === u.seq ? '' : '… '}` : '';
      const text = u.termMarkdown ? `${u.termMarkdown}: ${opening}${u.markdown}` : `${opening}${u.markdown}`;
      // What follows in its own section: a sentence ending a section leads into no other.
      const after = following(u, index)[0];
      const next = after && after.headings.join('\n') === u.headings.join('\n') ? after : undefined;
      // A sentence leading into what follows ("… like this:", "… can be recovered using") brings it.
      const leadsOn =
        next !== undefined &&
        (/[:：、，,]$/.test(u.text.trim()) ||
          (!/[.!?。！？)）"”'`]$/.test(u.text.trim()) &&
            // A clause of Chinese or Japanese is counted by its characters: it writes no spaces.
            (isSpaceless(u.text) ? u.text.length >= 10 : (u.text.match(/\p{L}{2,}/gu) ?? []).length >= 5)));
      const lines = [leadsOn ? `${text} [${u.ref}]` : cite(text, u.ref)];
      const used = opening && first ? [first, u] : [u];
      // A question the source asks (a FAQ's) is answered by the paragraph after it, as far as the
      // room allows. A sentence leading on brings what follows: a line of code, a short code block,
      // the list it leads into.
      const code = (x: RankedUnit) => x.group !== u.group && x.text.length <= 200 && looksLikeCode(x.text);
      let brought: RankedUnit[] = [];
      if (next?.kind === 'sentence' && /[?？]$/.test(u.text.trim()))
        brought = sayOpening(following(u, index).filter((x) => x.group === next.group && x.kind === 'sentence')).used;
      else if (leadsOn && next?.kind === 'sentence' && code(next)) brought = [next];
      // A command printed as a paragraph after "…, run:" is quoted as code: a full stop would change it.
      else if (leadsOn && next?.kind === 'sentence' && looksLikeCommand(next.text)) {
        lines.push(citeBlock(fenced([next.text], null), next.ref));
        used.push(next);
      }
      // A sentence cut off mid-clause ("… recommends that a browser SHOULD allow") goes on in the next block.
      else if (leadsOn && next?.kind === 'sentence' && !/[:：、，,]$/.test(u.text.trim())) brought = [next];
      else if (leadsOn && next?.kind === 'code' && lineCount(next.text) <= MAX_BLOCK_LINES) brought = [next];
      // The list's lead-in is the paragraph this sentence ends ("…, which has the following attributes:",
      // "… include the items listed below.", "Why use this module?"); a table's is the sentence right above it.
      else if (
        (leadsOn || /\b(?:below|following|as follows)\b/i.test(u.text) || /[?？]$/.test(u.text.trim())) &&
        (next?.kind === 'item' || next?.kind === 'field' || next?.kind === 'row') &&
        (next.kind === 'row' || next.leadIn?.endsWith(u.text))
      )
        brought = following(u, index).filter((x) => x.group === next.group && x.kind !== 'sentence');
      // So are the entries it leads into ("BYTES … may have a multiplier suffix:" over b, KB, K…).
      else if (leadsOn && next?.kind === 'definition' && next.leadIn?.endsWith(u.text))
        brought = following(u, index).filter((x) => x.kind === 'definition' && x.leadIn === next.leadIn);
      if (next && brought.length > 0) {
        const said = (x: RankedUnit) =>
          x.kind === 'definition' ? `${x.termMarkdown}: ${x.descriptionMarkdown}` : x.markdown;
        const items = brought.slice(0, MAX_LIST).map((x) => `- ${cite(said(x), x.ref)}`);
        const kind = next.kind;
        lines.push(
          kind === 'code'
            ? citeBlock(next.markdown, next.ref)
            : kind === 'sentence'
              ? cite(brought.map((x) => x.markdown).join(' '), next.ref)
              : kind === 'row'
                ? tableOf(brought.slice(0, MAX_LIST))
                : items.join('\n'),
        );
        used.push(...brought);
      }
      // Leading into nothing it brings, it ends as a sentence.
      if (lines.length === 1) lines[0] = cite(text, u.ref);
      return { lines, used, prose: !u.termMarkdown };
    }
    case 'field': {
      // A property of its section's subject is said with that subject, as a cell with its row:
      // "For debug, Default: `false`."
      const split = /^([^:=]+?)\s*[:=]\s*(.+)$/s.exec(u.markdown);
      // A list item naming a setting ("`allowNodeTypes`: `string[]`") is said with its sub-items.
      const items = following(u, index).filter((x) => x.group === u.group && x.leadIn === u.text && x.kind === 'item');
      const said = !u.subject || !split ? u.markdown : frame.cell(asText(u.subject), split[1], split[2]);
      const list = items.slice(0, MAX_LIST).map((x) => `- ${cite(x.markdown, x.ref)}`);
      return {
        lines: [cite(said, u.ref), ...(list.length ? [list.join('\n')] : [])],
        used: [u, ...items],
        prose: false,
      };
    }
    default:
      return { lines: [cite(u.markdown, u.ref)], used: [u], prose: false };
  }
}

/**
 * Prose said with the code block its paragraph leads into ("Run test code in `test` folder." over
 * `npm test`), for a part asking how to do a thing; unchanged when it says code already.
 */
export function withItsCode(said: Said, q: Query, index: UnitIndex, frame: AnswerFrame): Said {
  const last = said.used.at(-1);
  if (!last || last.kind !== 'sentence' || said.used.some((u) => u.kind === 'code' || u.kind === 'codeLine'))
    return said;
  const next = following(last, index).find((x) => x.group !== last.group);
  if (next?.kind !== 'code' || !next.leadIn?.includes(last.text) || lineCount(next.text) > MAX_BLOCK_LINES) return said;
  const block = sayUnit(next, q, index, frame);
  return {
    ...said,
    // Its lead-in is said already, at the end of a line ("**`X-Frame-Options`**: Default: [1]").
    lines: [...said.lines, ...block.lines.filter((l) => !said.lines.some((s) => s.endsWith(l)))],
    used: [...said.used, next],
  };
}

/**
 * The lines of a code block a comment line belongs with: the comment's run and the first line of
 * code after it; for a line of code, the comments right above it and the line. None when the line
 * has no comment beside it.
 */
function commentedExcerpt(u: RankedUnit, index: UnitIndex): RankedUnit[] | undefined {
  const lines = groupOf(u, index, 'codeLine');
  const at = lines.indexOf(u);
  if (at < 0) return undefined;
  const isResult = (i: number) => i >= 0 && i < lines.length && isResultOf(lines[i].text, lines[i - 1]?.text);
  // A result comment (`//=> 'patch'`) is said with the line above it that gives it.
  if (isResult(at) && at > 0 && !COMMENT.test(lines[at - 1].text)) return lines.slice(at - 1, at + 1);
  let from = at;
  // The comments right above it: one before a blank line ends another example (its `// -> ' '`).
  const source = groupOf(u, index, 'code')[0]?.text.split('\n') ?? [];
  const blankBetween = (a: RankedUnit, b: RankedUnit) =>
    source.slice((a.line ?? 0) + 1, b.line ?? 0).some((l) => !l.trim());
  while (
    from > 0 &&
    COMMENT.test(lines[from - 1].text) &&
    !isResult(from - 1) &&
    !blankBetween(lines[from - 1], lines[from])
  )
    from--;
  let to = at;
  if (COMMENT.test(u.text)) {
    to = lines.findIndex((x, i) => i > at && !COMMENT.test(x.text));
    if (to < 0) return undefined;
  }
  while (isResult(to + 1)) to++;
  return from < at || to > at ? lines.slice(from, to + 1) : undefined;
}

/** Whether a line of code is followed by a comment saying what it gives: the answer to "What does it return?". */
export function givesResult(u: RankedUnit, index: UnitIndex): boolean {
  const lines = groupOf(u, index, 'codeLine');
  const next = lines[lines.indexOf(u) + 1];
  return u.kind === 'codeLine' && next !== undefined && isResultOf(next.text, u.text);
}

/**
 * The line closing the brackets line `at` of a block leaves open, when that is near; else `at`.
 */
function statementEnd(source: string[], at: number): number {
  let open = bracketDepth(source[at] ?? '');
  if (open <= 0) return at;
  for (let i = at + 1; i < source.length && i - at <= MAX_STATEMENT_LINES; i++)
    if ((open += bracketDepth(source[i])) <= 0) return i;
  return at;
}

/** Lines a statement left open may go on over before it is said as its first line alone. */
const MAX_STATEMENT_LINES = 8;

/** Brackets a line of code opens and does not close (its strings and comment left out). */
function bracketDepth(line: string): number {
  const code = line.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '').replace(/\/\/.*$/, '');
  return (code.match(/[([{]/g)?.length ?? 0) - (code.match(/[)\]}]/g)?.length ?? 0);
}

/**
 * A row: the cells the part asks for, as sentences, when it names the row (its key) and a column;
 * else the row under its table's header.
 */
function sayRow(u: RankedUnit, q: Query, frame: AnswerFrame, placed = false): Said {
  const header = u.header ?? [];
  const cells = u.cells ?? [];
  const keyAt = cells.findIndex((c) => c.text === u.rowKey);
  const rowNamed = u.rowKey !== undefined && touches(u.rowKey, q);
  const named = header
    // The question part's own terms (not only its context) that each column's header holds.
    .map((h, i) => ({ h, i, terms: new Set(termsOf(h.text).filter((t) => (q.get(t) ?? 0) >= 1)) }))
    .filter(({ i, terms }) => i !== keyAt && cells[i]?.text && terms.size > 0);
  // The column the question names most fully: "pinyin-pro" names the pinyin-pro column, not "pinyin".
  const asked = named.filter(
    ({ terms }) => !named.some((o) => o.terms.size > terms.size && [...terms].every((t) => o.terms.has(t))),
  );
  if (rowNamed && asked.length > 0 && asked.length < header.length - 1) {
    const heading = placed ? u.headings.at(-1) : undefined;
    const section = heading && asText(heading);
    const key = `${cells[keyAt]?.markdown ?? u.rowKey ?? ''}${section ? ` (${section})` : ''}`;
    const lines = asked.map(({ h, i }) => cite(frame.cell(key, h.markdown, cells[i].markdown), u.ref));
    return { lines, used: [u], prose: false };
  }
  // A table without header text (a two-column options list) reads as its row: "name: what it is".
  if (header.every((h) => !h.text.trim()) && cells.length >= 2) {
    const [name, ...rest] = cells.map((c) => c.markdown);
    return { lines: [cite(`${name}: ${rest.filter(Boolean).join(' — ')}`, u.ref)], used: [u], prose: false };
  }
  return { lines: [tableOf([u])], used: [u], prose: false };
}

/** Rows of one table said together: their cells as sentences where asked, else one table under one header. */
export function sayRows(rows: RankedUnit[], q: Query, frame: AnswerFrame): Said {
  const each = rows.map((r) => sayRow(r, q, frame));
  if (each.every((e) => !e.lines[0].includes('\n')))
    return { lines: each.flatMap((e) => e.lines), used: rows, prose: false };
  return { lines: [tableOf(rows)], used: rows, prose: false };
}

/** Most tables a comparison of rows reads from. */
const MAX_COMPARED_TABLES = 6;

/**
 * Compared subjects' rows (comparedRows): one table of them. When several tables hold them under
 * one header (a benchmark per browser), one table still, each row placed by a first column that
 * names its table's section, under their common parent heading.
 */
export function sayComparedRows(tables: RankedUnit[][], frame: AnswerFrame): Said {
  const shown = tables.slice(0, MAX_COMPARED_TABLES);
  const header = shown[0][0].header ?? [];
  const same = (rows: RankedUnit[]) =>
    (rows[0].header ?? []).map((h) => h.text).join('|') === header.map((h) => h.text).join('|');
  const ref = shown[0][0].ref;
  const used = shown.flat();
  // Rows of a table without header text (an API summary) read as rows: "name: what it is".
  if (header.every((h) => !h.text.trim()) && shown.every(same))
    return { lines: used.map((r) => sayRow(r, new Map(), frame).lines[0]), used, prose: false };
  if (shown.length === 1 || !shown.every((rows) => same(rows) && rows[0].ref === ref && rows[0].headings.length > 0)) {
    return { lines: shown.map(tableOf), used, prose: false };
  }
  const cell = (text: string) => ({ text, markdown: asText(text) });
  const parent = shown[0][0].headings.at(-2) ?? '';
  const sections = shown.map((rows) => rows[0].headings.at(-1) ?? '');
  const table = tableMarkdown(
    [cell(parent), ...header],
    shown.flatMap((rows, k) => rows.map((r) => [cell(sections[k]), ...(r.cells ?? [])])),
  );
  return { lines: [citeBlock(table, ref)], used, prose: false };
}

/** A list question: the list, table, code block or run of definitions it names, whole (up to MAX_LIST entries), under its lead-in. */
export function sayList(group: RankedUnit[], index: UnitIndex): Said | null {
  const top = group[0];
  const lead = top?.leadIn ? `${cite(leadOf(top), top.ref)}\n\n` : '';
  const rows = group.filter((x) => x.kind === 'row');
  if (rows.length >= 2) {
    return { lines: [`${lead}${tableOf(rows.slice(0, MAX_LIST * 2))}`], used: rows, prose: false };
  }
  const code = group.find((x) => x.kind === 'code');
  if (code && lineCount(code.text) <= MAX_LIST * 2)
    return { lines: [`${lead}${citeBlock(code.markdown, code.ref)}`], used: [code], prose: false };
  const listed = group.filter((x) => x.kind === 'item' || x.kind === 'field' || x.kind === 'definition');
  // A section of prose is listed sentence by sentence when it holds no list of its own.
  const items = listed.length >= 2 ? listed : group.filter((x) => x.kind === 'sentence');
  if (items.length < 2) return null;
  const said = items
    .slice(0, MAX_LIST)
    .map((x) =>
      x.kind === 'definition'
        ? `- ${cite(`${x.termMarkdown}: ${firstSentence(x, index)}`, x.ref)}`
        : `- ${cite(x.markdown, x.ref)}`,
    );
  // A list cut short says so: its last line would otherwise read as the list's end.
  if (items.length > MAX_LIST) said.push('- …');
  return { lines: [`${lead}${said.join('\n')}`], used: items, prose: false };
}

/** A definition's first description sentence. */
function firstSentence(d: RankedUnit, index: UnitIndex): string {
  return groupOf(d, index, 'sentence')[0]?.markdown ?? d.descriptionMarkdown ?? '';
}

/** A section's opening paragraph, its sentences in order as far as the room allows (one at least), cited once. */
export function sayOpening(sentences: RankedUnit[]): Said {
  const kept: RankedUnit[] = [];
  for (const u of sentences) {
    const size = [...kept, u].map((x) => x.markdown).join(' ').length;
    if (kept.length > 0 && size > PARAMS.maxChars) break;
    kept.push(u);
  }
  // Under an API's name (`pMapSkip`), the opening is said with it, as its sentences are one by one.
  const named = kept[0].termMarkdown;
  const text = kept.map((x) => x.markdown).join(' ');
  return { lines: [cite(named ? `${named}: ${text}` : text, kept[0].ref)], used: kept, prose: !named };
}

/** A line as a reader compares it: its words, without citations, Markdown marks or case. */
const gist = (line: string) =>
  line
    .replace(/\[\d+\]/g, '')
    .replace(/[`*_\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The answer's lines without saying a thing twice: a line whose words another line already says
 * (a sentence, then the paragraph leading into a code block that holds it; a definition's first
 * sentence, then the whole definition) is left out, the fuller line kept where it stands. A code
 * block holding a line quoted alone is the one left out: the line is what answers.
 */
export function withoutRepeats(lines: string[]): string[] {
  const gists = lines.map(gist);
  const isCode = lines.map((l) => /^`{3,}/.test(l));
  const repeats = (i: number, j: number) => {
    const [a, b] = [gists[i], gists[j]];
    if (i === j || a.length < 20 || b.length < 20) return false;
    if (a === b) return j < i;
    if (isCode[i] && !isCode[j] && a.includes(b)) return true;
    // Of two code blocks, one inside the other is another example ("remove" alone, then with its path).
    return b.includes(a) && !isCode[j];
  };
  return lines.filter((_, i) => !lines.some((__, j) => repeats(i, j)));
}

const MAX_COMMAND_BLOCKS = 3;
const MAX_COMMAND_LINES = 8;

/** A section's code blocks, in order, each under its lead-in, while they are few and short. */
export function sayCommands(scope: Set<RankedUnit>, q: Query, index: UnitIndex, frame: AnswerFrame): Said | undefined {
  const blocks = [...scope].filter((u) => u.kind === 'code').sort((a, b) => a.seq - b.seq);
  const kept: RankedUnit[] = [];
  let lines = 0;
  for (const b of blocks) {
    lines += b.text.split('\n').length;
    if (kept.length > 0 && (kept.length >= MAX_COMMAND_BLOCKS || lines > MAX_COMMAND_LINES)) break;
    kept.push(b);
  }
  if (kept.length === 0) return undefined;
  const said = kept.map((b) => sayUnit(b, q, index, frame));
  return { lines: said.flatMap((x) => x.lines), used: said.flatMap((x) => x.used), prose: false };
}
