import type {
  Blockquote,
  Code,
  Heading,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  RootContent,
  Table,
  TableRow,
} from 'mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown } from 'mdast-util-to-markdown';
import { toString } from 'mdast-util-to-string';
import { looksLikeCode } from './statements.js';

/**
 * Plain text (a Debian README, a FAQ, texinfo's or groff's text output) as Markdown that keeps its
 * structure, so it is read into units as every other format is. Parsed as Markdown, plain text lost
 * it: a `~~~` underline opened a fence that ran to the end, a tab-indented section became code, and
 * `*` or `_` became emphasis. Recognised here, from the layout alone:
 * - headings: a line underlined (`===`, `---`, `***`, `~~~`) or between two rules, a numbered
 *   question or title (`2.1. When building…?`), a question over its answer (`Q. …?` over `A. …`),
 *   an ALL-CAPS line (`DESCRIPTION`), the first line
 *   when it stands alone as a title, and a FAQ's entries: numbered lines (`11. Can zlib…?`) each
 *   standing alone over the text indented under it, when the document has several;
 * - lists (`-`, `*`, `+`, `•`, `1.`, `a)`), their wrapped lines joined to their item;
 * - an option and its description (`-r number` over an indented description);
 * - tables drawn with pipes, their header over a rule of dashes (`uid | name` over `----+-----`,
 *   as psql prints them), each line a row;
 * - code: lines indented past the prose around them that do not read as prose, or that read as code;
 * - paragraphs: hard-wrapped lines joined. Every word stays, in order; rules are dropped.
 */
export function plainTextToMarkdown(text: string): string {
  const groups = groupsOf(lines(text));
  const out: RootContent[] = [];
  const styles: string[] = [];
  const levelOf = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    return Math.min(6, styles.indexOf(style) + 1);
  };
  let proseIndent = 0;
  const entries = faqEntries(groups);
  const marginTitles = marginHeadings(groups);
  const outline = outlineHeadings(groups);
  groups.forEach((g, i) => {
    const heading = entries.has(g)
      ? { text: joined(g.lines), lines: g.lines.length, style: 'faq' }
      : marginTitles.has(g)
        ? { text: g.lines[0].text, lines: 1, style: 'margin' }
        : (outline.get(g) ?? headingOf(g, i === 0 && g.lines.length === 1 && groups.length > 1, groups[i + 1]));
    let body = g.lines;
    if (heading) {
      const depth = heading.numberDepth ?? levelOf(heading.style);
      out.push(headingNode(heading.text, Math.min(6, depth)));
      body = g.lines.slice(heading.lines);
      // A man page's section is indented under its name, a FAQ's answer under its question: that
      // indent is its prose's.
      if (heading.style === 'caps' || heading.style === 'faq' || heading.style === 'margin')
        proseIndent = (body[0] ?? groups[i + 1]?.lines[0])?.indent ?? proseIndent;
    }
    // A paragraph whose first line alone is indented (a typewriter's paragraph), or hung from a
    // label whose text starts where its other lines do ("A:   This is…" over lines set in under
    // "This"), is prose at its other lines' margin.
    const rest = body.slice(1);
    const hung = body[0] && body[0].indent + (/^\S+\s+/.exec(body[0].text)?.[0].length ?? 0) === rest[0]?.indent;
    if (
      rest.length > 0 &&
      (body[0].indent > rest[0].indent || hung) &&
      rest.every((l) => l.indent === rest[0].indent) &&
      isProse(body)
    )
      body = [{ ...body[0], indent: rest[0].indent }, ...rest];
    const before = heading ? undefined : out.at(-1);
    const leadsIn = before?.type === 'paragraph' && /[:：]$/.test(toString(before).trim());
    for (const [n, block] of bodyBlocks(body, proseIndent, leadsIn).entries()) {
      // Code that went on after a blank line is one block, blank line kept.
      const last = out.at(-1);
      const node = block.node;
      if (n === 0 && !heading && node.type === 'code' && last?.type === 'code') last.value += `\n\n${node.value}`;
      // A list whose items are set apart by blank lines is one list.
      else if (n === 0 && !heading && node.type === 'list' && last?.type === 'list' && last.ordered === node.ordered)
        last.children.push(...node.children);
      else out.push(node);
      if (block.proseIndent !== undefined) proseIndent = block.proseIndent;
    }
  });
  return toMarkdown(
    { type: 'root', children: out },
    { bullet: '-', fences: true, listItemIndent: 'one', extensions: [gfmTableToMarkdown()] },
  );
}

interface Line {
  text: string;
  indent: number;
}

/** Lines of one character repeated: separators and underlines, not text. */
const RULE = /^\s*([-=~*_#+.^])\1{2,}\s*$/;
/** A list mark: `-`, `*`, `+`, `•`, a `--` set off by two spaces or a tab (Vixie cron's FEATURES), `1.`, `a)`. */
const BULLET = /^(\s*)(?:(--(?=\s{2})|[-*+•])|(\d{1,3})[.)]|([a-zA-Z])\))\s+(?=\S)/;
const QUESTION = /^Q[.:]\s/;
const NUMBERED_HEADING = /^(\d+(?:\.\d+)+)\.?\s+\S/;
const CAPS = /^(?=(?:.*\p{Lu}){2})[\p{Lu}\p{N}][\p{Lu}\p{N} &/()',.:-]*$/u;
const OPTION_INLINE = /^(--?[\p{L}\p{N}][\p{L}\p{N}_-]*(?:[ =,]\s*[^\s,]+){0,3})\s{2,}(\S.*)$/u;
const FIELD_LINE = /^\p{L}[\p{L}\p{N} -]{0,30}:\s+\S/u;
/** A name, a dash and what it is: "pg_dropcluster    - Completely remove a cluster." */
const DASHED_TERM = /^([\p{L}\p{N}_][\p{L}\p{N}_.+-]*)\s+[-–—]\s+(\S.*)$/u;
/**
 * A name, an equals sign and what it means, in words opening in lower case: "<count> = the number
 * of keys returned…". A value a config file sets ("Name = My tool") is no description.
 */
const EQUALS_TERM = /^(<[^<>\s]+(?: [^<>\s]+)*>|[\p{L}\p{N}_][\p{L}\p{N}_.+-]*)\s+={1,2}\s+(\p{Ll}+(?:\s+\S+){2,}.*)$/u;
/** A short name said to mean a word or two, one of a run: "r == revoked" (one "=" sets a value). */
const EQUALS_VALUE = /^([\p{L}\p{N}_][\p{L}\p{N}_.+-]{0,19})\s+==\s+(\p{L}[\p{L}\p{N} -]*)$/u;
const termLine = (line: string) => DASHED_TERM.exec(line) ?? EQUALS_TERM.exec(line) ?? EQUALS_VALUE.exec(line);
const MIN_FIELD_LINES = 3;
const FRAMED = /^[|+].*[|+]$/;
const SENTENCE_END = /[.;,:!。！：]$/;
const CJK_EDGE = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]/;

function lines(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(expandTabs);
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line.trimEnd();
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch;
  return out.trimEnd();
}

const lineOf = (text: string): Line => ({ text: text.trim(), indent: text.length - text.trimStart().length });

interface Group {
  lines: Line[];
  /** The rule character directly above the first line, and directly below the last, if any. */
  above?: string;
  below?: string;
  belowLength?: number;
}

/** Runs of text lines, cut at blank lines and rules; each remembers the rules that touch it. */
function groupsOf(raw: string[]): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let ruleAbove: string | undefined;
  for (const text of raw) {
    const rule = RULE.exec(text);
    if (!text.trim() || rule) {
      if (current && rule) {
        current.below = rule[1];
        current.belowLength = text.trim().length;
      }
      current = undefined;
      ruleAbove = rule ? rule[1] : undefined;
      continue;
    }
    if (!current) {
      current = { lines: [], above: ruleAbove };
      groups.push(current);
      ruleAbove = undefined;
    }
    current.lines.push(lineOf(text));
  }
  return groups;
}

interface FoundHeading {
  text: string;
  /** How many of the group's lines it takes. */
  lines: number;
  /** A heading's level: by its numbering (`2.1.` is 2), or by the order its style first appears. */
  numberDepth?: number;
  style: string;
}

const joined = (ls: Line[]) => joinLines(ls.map((l) => l.text));
const titleLike = (s: string) => s.length <= 100 && !SENTENCE_END.test(s);

function headingOf(g: Group, firstAlone: boolean, next: Group | undefined): FoundHeading | undefined {
  const first = g.lines[0].text;
  const whole = joined(g.lines);
  // Underlined (setext or texinfo), or set between two rules; not a box's line ("| nano 7.2 |").
  if (g.below && g.lines.length <= 2 && titleLike(whole) && !FRAMED.test(whole)) {
    const ratio = (g.belowLength ?? 0) / Math.max(1, whole.length);
    if (g.above || (ratio >= 0.4 && ratio <= 2))
      return { text: whole, lines: g.lines.length, style: `${g.above ? 'o' : 'u'}${g.below}` };
  }
  // A FAQ's question ("Q. Is this ok?") over its answer ("A. Yes.") or over another question.
  if (QUESTION.test(first) && next && /^[QA][.:]\s/.test(next.lines[0].text) && whole.length <= 300)
    return { text: whole, lines: g.lines.length, style: 'qa' };
  const numbered = NUMBERED_HEADING.exec(first);
  if (numbered && !(g.lines.length > 1 && g.lines.every((l) => NUMBERED_HEADING.test(l.text)))) {
    const numberDepth = numbered[1].split('.').length;
    // A numbered question or title runs to its "?" or ":"; one alone in its group is all title.
    const end = g.lines.slice(0, 6).findIndex((l) => /[?:？：]$/.test(l.text));
    if (end >= 0) return { text: joined(g.lines.slice(0, end + 1)), lines: end + 1, numberDepth, style: 'n' };
    if (g.lines.length <= 3 && whole.length <= 200)
      return { text: whole, lines: g.lines.length, numberDepth, style: 'n' };
    if (titleLike(first) && first.length <= 80) return { text: first, lines: 1, numberDepth, style: 'n' };
  }
  const caps = first.length <= 60 && CAPS.test(first) && /\p{Lu}{2}/u.test(first);
  if (caps && (g.lines.length === 1 || g.lines[1].indent > g.lines[0].indent))
    return { text: first, lines: 1, style: 'caps' };
  if (firstAlone && titleLike(first) && first.length <= 80 && !BULLET.test(first) && !looksLikeCode(first))
    return { text: first, lines: 1, style: 'title' };
  // A short line alone over a paragraph names its section ("Portability Notes", "II. Development History").
  const overProse =
    next !== undefined &&
    next.lines[0].indent <= g.lines[0].indent &&
    !BULLET.test(next.lines[0].text) &&
    isProse(next.lines);
  // So does one set off by a run of marks before it ("---Shadow passwords", "--- Group administration").
  const title = /[-=*#]{2,}\s*$/.test(first) ? first : first.replace(LEADING_MARKS, '');
  // Not a name and its value ("GNU Sed website: https://www.gnu.org/software/sed/"). One marked
  // as a Markdown heading may end as a sentence ("## YAJL is Free.").
  if (
    g.lines.length === 1 &&
    overProse &&
    (titleLike(title) || /^#{1,6}\s/.test(first)) &&
    title.length <= 60 &&
    /^\p{Lu}/u.test(title) &&
    !/[:：]\s+\S/u.test(title)
  )
    return { text: title.replace(/^([IVX]+\.)\s+/, '$1 '), lines: 1, style: 'alone' };
  return undefined;
}

/** A document needs this many titles at its margin before such lines are read as its sections. */
const MIN_MARGIN_TITLES = 3;

/**
 * Section names at the document's margin, each alone over text set in under it (GNU nano's README:
 * "Purpose", "How to compile and install nano", "Web Page", each over an indented body). Read as
 * sections when the document has several, whatever their body opens with (a URL, a list).
 */
function marginHeadings(groups: Group[]): Set<Group> {
  const margin = Math.min(...groups.map((g) => g.lines[0].indent));
  const found = groups.filter((g, i) => {
    const line = g.lines[0];
    const next = groups[i + 1]?.lines[0];
    return (
      g.lines.length === 1 &&
      line.indent === margin &&
      next !== undefined &&
      next.indent > margin &&
      titleLike(line.text) &&
      line.text.length <= 60 &&
      /^\p{Lu}/u.test(line.text) &&
      !BULLET.test(line.text) &&
      // A capitalised word alone ("Purpose") is a name, not an identifier.
      (/^\p{Lu}\p{Ll}+$/u.test(line.text) || !looksLikeCode(line.text))
    );
  });
  return new Set(found.length >= MIN_MARGIN_TITLES ? found : []);
}

/** An outline's heading, as Emacs writes them: its stars, then a capitalised title ("* Dependencies"). */
const OUTLINE = /^(\*{1,3})\s+(\p{Lu}[^.!?:]{0,59})$/u;

/**
 * Outline headings ("* Installation" alone over its text, as tmux's README sets each section), a
 * star per level, when the document has several and none runs on into another starred line, as
 * a list's items would.
 */
function outlineHeadings(groups: Group[]): Map<Group, FoundHeading> {
  const found = new Map<Group, FoundHeading>();
  groups.forEach((g, i) => {
    const m = OUTLINE.exec(g.lines[0].text);
    const next = groups[i + 1]?.lines[0];
    if (g.lines.length === 1 && g.lines[0].indent === 0 && m && next && !BULLET.test(next.text))
      found.set(g, { text: m[2].trim(), lines: 1, numberDepth: m[1].length + 1, style: 'outline' });
  });
  return found.size >= MIN_MARGIN_TITLES ? found : new Map<Group, FoundHeading>();
}

const LEADING_MARKS = /^(?:-{2,}|={2,}|\*{2,}|#{1,6})\s*(?=\p{Lu})/u;
const ENTRY_NUMBER = /^\d{1,3}[.)]\s+\S/;
/** A FAQ needs this many entries before its numbered lines are read as entries, not as a list. */
const MIN_FAQ_ENTRIES = 3;

/**
 * A FAQ's numbered entries: a numbered line (or two or three, up to 200 characters) alone in its
 * group, with the next group indented past its number: the answer set under its question. A list
 * whose items run on at their own margin, or follow each other line by line, is not one.
 */
function faqEntries(groups: Group[]): Set<Group> {
  const found = groups.filter((g, i) => {
    const next = groups[i + 1]?.lines[0];
    const first = g.lines[0];
    return (
      ENTRY_NUMBER.test(first.text) &&
      g.lines.length <= 3 &&
      joined(g.lines).length <= 200 &&
      g.lines.slice(1).every((l) => !ENTRY_NUMBER.test(l.text)) &&
      next !== undefined &&
      next.indent > first.indent &&
      !ENTRY_NUMBER.test(next.text)
    );
  });
  return new Set(found.length >= MIN_FAQ_ENTRIES ? found : []);
}

interface BodyBlock {
  node: RootContent;
  /** The indent of prose, when this block is prose: code is what is indented past it. */
  proseIndent?: number;
}

/** A group's lines after its heading, as paragraphs, lists, option definitions and code. */
function bodyBlocks(body: Line[], proseIndent: number, leadsIn = false): BodyBlock[] {
  const out: BodyBlock[] = [];
  let i = 0;
  while (i < body.length) {
    const line = body[i];
    const table = tableFrom(body, i);
    if (table) {
      out.push({ node: table.node });
      i = table.next;
      continue;
    }
    const bullet = BULLET.exec(' '.repeat(line.indent) + line.text);
    if (bullet) {
      const { node, next } = listFrom(body, i);
      out.push({ node });
      i = next;
      continue;
    }
    // A run of such names (two or more at one margin) is a list of terms, each over its description;
    // so is one name equated with words ("<count> = the number of keys…").
    const dashedAt = (l: Line) => l.indent === line.indent && termLine(l.text) !== null;
    const dashedTerm =
      dashedAt(line) && (EQUALS_TERM.test(line.text) || body.filter(dashedAt).length >= 2) ? termLine(line.text) : null;
    const inline = line.text.length <= 300 ? (OPTION_INLINE.exec(line.text) ?? dashedTerm) : null;
    // Lines set in under a paragraph ending in a colon ("then you can run:", "These are:") are
    // given as written, each on its own line: commands, names, a line of a config file.
    const ledInto = i === 0 ? leadsIn : setInUnder(body[i - 1], line);
    const literal =
      ledInto && line.indent > proseIndent && setInFrom(body, i, proseIndent).every((l) => !/[.!?]$/.test(l.text));
    // A label over one dashed line set in under it ("/etc/groff" over "  - local macro configuration")
    // is a term and its description, even where the lines are led into as literal ones.
    const dashed = isTermOver(line, body[i + 1]) && BULLET.test(body[i + 1].text) && !isBulletAt(body, i + 2, i + 1);
    const termOver = (!literal || dashed) && isTermOver(line, body[i + 1]);
    if (dashed) {
      let end = i + 2;
      while (end < body.length && body[end].indent > body[i + 1].indent) end++;
      const description = [body[i + 1].text.replace(BULLET, ''), ...body.slice(i + 2, end).map((l) => l.text)];
      out.push({ node: paragraph([{ type: 'strong', children: [text(line.text)] }]) });
      out.push({ node: paragraph([text(joinLines(description))]) });
      i = end;
      continue;
    }
    if (inline || termOver) {
      let end = i + 1;
      // The description goes on over indented lines, and over a line back at the term's margin that
      // ends a sentence the line before left open ("Requires /afs, /usr/afsws/lib, and").
      const goesOn = (at: number) =>
        body[at].indent > line.indent ||
        (at > i + 1 &&
          !/[.!?:。！？：]$/.test(body[at - 1].text) &&
          !OPTION_INLINE.test(body[at].text) &&
          !(dashedTerm && dashedAt(body[at])) &&
          !isTermOver(body[at], body[at + 1]));
      while (end < body.length && goesOn(end) && !BULLET.test(body[end].text)) end++;
      const description = [...(inline ? [inline[2]] : []), ...body.slice(i + 1, end).map((l) => l.text)];
      out.push({ node: paragraph([{ type: 'strong', children: [text(inline ? inline[1] : line.text)] }]) });
      if (description.length) out.push({ node: paragraph([text(joinLines(description))]) });
      i = end;
      continue;
    }
    // A run of lines up to the next list item, or to where lines go past the prose's indent or back,
    // or are set in under a line ending in a colon ("Or:" over " apt-get install git-daemon-run").
    let end = i + 1;
    while (
      end < body.length &&
      !BULLET.test(' '.repeat(body[end].indent) + body[end].text) &&
      body[end].indent >= proseIndent + 4 === body[end - 1].indent >= proseIndent + 4 &&
      !setInUnder(body[end - 1], body[end])
    )
      end++;
    const run = body.slice(i, end);
    const indent = Math.min(...run.map((l) => l.indent));
    // An e-mail's quoted paragraph ("> By purging and reinstalling…") is a quotation, not code.
    const unquoted = run.map((l) => ({ ...l, text: l.text.replace(/^>\s?/, '') }));
    if (run.every((l) => /^>(?:\s|$)/.test(l.text)) && isProse(unquoted)) {
      out.push({ node: quotation(joined(unquoted)) });
      i = end;
      continue;
    }
    const prose = isProse(run);
    // A word or two ending in a colon ("Or:", "Example:") labels what follows: no code of its own.
    const codeLines = run.filter((l) => readsAsCode(l.text) && !/^[\p{L}\s]{1,30}[:：]$/u.test(l.text)).length;
    // A comment over a command ("# Delete leading blank lines" over `sed '/./,$!d' file`) is code.
    const codeByLook = codeLines * 2 > run.length || (codeLines * 2 === run.length && COMMENT_LINE.test(run[0].text));
    const indented = indent >= proseIndent + 4;
    // A shell prompt opening a run is a terminal session: the lines after it are its output
    // ("$ ls -l /bin/ping" over "-rwsr-xr-x 1 root root …").
    const session = PROMPT_LINE.test(run[0].text) && !prose;
    // Lines framed by bars are a box drawn in text (a screen's picture): kept as drawn.
    const drawn = run.every((l) => FRAMED.test(l.text));
    if (
      (indented && (!prose || technicalShare(run) >= 0.25)) ||
      ((codeByLook || session) && !prose) ||
      literal ||
      drawn
    ) {
      // Code goes on over the lines indented at least as far as it (a call's wrapped arguments).
      while (end < body.length && body[end].indent >= indent && !BULLET.test(body[end].text)) end++;
      out.push({ node: codeNode(body.slice(i, end), indent) });
    } else if (FIELD_LINE.test(run[0].text) && run.filter((l) => FIELD_LINE.test(l.text)).length >= MIN_FIELD_LINES) {
      // Lines each naming a value ("Program: GNU bc", "Author: Philip A. Nelson") are fields, each a
      // paragraph with the lines it goes on over.
      const fields: Line[][] = [];
      for (const l of run)
        if (FIELD_LINE.test(l.text) || fields.length === 0) fields.push([l]);
        else fields.at(-1)!.push(l);
      for (const f of fields) out.push({ node: paragraph([text(joined(f))]) });
    } else {
      out.push({ node: paragraph([text(joined(run))]), proseIndent: prose ? indent : undefined });
    }
    i = end;
  }
  return out;
}

/** A rule under a table's header: dashes meeting at `+` or `|` (`------+-----`, `|---|---|`, `+--+--+`). */
const TABLE_RULE = /^[+|]?\s*:?-{2,}:?\s*(?:[+|]\s*:?-{2,}:?\s*)+[+|]?$/;

/** A row's cells: the text between its pipes, outer pipes dropped. */
const cellsOf = (line: string) =>
  line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/**
 * A table drawn with pipes from line `i`: a header of two or more cells over a rule with as many,
 * then the lines at the header's margin with as many cells, a rule above the header or under the
 * rows dropped (`+----+----+`). Undefined when line `i` opens none.
 */
function tableFrom(body: Line[], i: number): { node: Table; next: number } | undefined {
  const start = TABLE_RULE.test(body[i].text) && /^\+/.test(body[i].text) ? i + 1 : i;
  const [header, rule] = [body[start], body[start + 1]];
  if (!header || !rule || !header.text.includes('|') || !TABLE_RULE.test(rule.text)) return undefined;
  const head = cellsOf(header.text);
  const width = head.length;
  if (width < 2 || cellsOf(rule.text.replace(/\+/g, '|')).length !== width) return undefined;
  const rows: TableRow[] = [rowOf(head)];
  let next = start + 2;
  for (; next < body.length && body[next].indent === header.indent; next++) {
    const cells = cellsOf(body[next].text);
    if (TABLE_RULE.test(body[next].text)) continue;
    if (cells.length !== width || !body[next].text.includes('|')) break;
    rows.push(rowOf(cells));
  }
  if (rows.length < 2) return undefined;
  return { node: { type: 'table', align: head.map(() => null), children: rows }, next };
}

const rowOf = (cells: string[]): TableRow => ({
  type: 'tableRow',
  children: cells.map((c) => ({ type: 'tableCell', children: c ? [text(c)] : [] })),
});

/** Whether line `at` is a list item at the indent of line `like`: a list's next item, not a lone dash. */
const isBulletAt = (body: Line[], at: number, like: number) =>
  at < body.length && body[at].indent === body[like].indent && BULLET.test(body[at].text);

/** The lines from `i` on set in past the prose's indent. */
function setInFrom(body: Line[], i: number, proseIndent: number): Line[] {
  let end = i + 1;
  while (end < body.length && body[end].indent > proseIndent) end++;
  return body.slice(i, end);
}

/** A line set in further than the line before it, which ends in a colon: what that line leads into. */
const setInUnder = (before: Line, line: Line) => /[:：]$/.test(before.text) && line.indent > before.indent;

/**
 * A short label over an indented description: an option (`-r number`), a file (`` `gdb/sim' ``), an
 * exit code; a few words, not a sentence or a line of code cut at its comma.
 */
function isTermOver(line: Line, next: Line | undefined): boolean {
  return (
    next !== undefined &&
    next.indent >= line.indent + 2 &&
    line.text.length <= 60 &&
    !/[.,;:!?(]$/.test(line.text) &&
    line.text.split(/\s+/).length <= 6 &&
    !BULLET.test(line.text) &&
    // A markup tag over its content (`<VirtualHost *:80>`) opens a config block.
    !/^<[^<>]+>$/.test(line.text)
  );
}

/** The share of words that are program text: paths, `file.c:12`, `a_b`, `==`, `(x)`, `$VAR`. */
function technicalShare(run: Line[]): number {
  const tokens = run.flatMap((l) => l.text.split(/\s+/)).filter(Boolean);
  const technical = tokens.filter((t) => /[_/\\<>=:;{}()[\]$%#@|]|\w\.\w|->|^--?\w/.test(t));
  return technical.length / Math.max(1, tokens.length);
}

/**
 * A line that looks like code and is not a line of a sentence naming code: "Yes. inflate() and
 * deflate() will process any amount of data correctly." has a call in it, and many more words.
 */
function readsAsCode(line: string): boolean {
  // A wrapped sentence's line may end at a comma, or open on an issue number ("#282587, #284287 and").
  const s = line
    .trim()
    .replace(/,$/, '')
    .replace(/^#(?=\d)/, '');
  if (!looksLikeCode(s)) return false;
  // A comment, a prompt or a keyword at the start is code, however many words follow.
  if (CODE_START.test(s)) return true;
  const words = line.match(/\p{L}{2,}/gu) ?? [];
  const letters = words.join('').length / Math.max(1, line.replace(/\s/g, '').length);
  return words.length < WORDY_LINE || letters < 0.75;
}

const CODE_START = /^(?:[{[<#>]|\$\s|\/\/|(?:const|let|var|import|export|function|class|return|await|if|for|while)\b)/;

const COMMENT_LINE = /^(?:#|\/\/)\s/;

const PROMPT_LINE = /^\$\s+\S/;

/** A line of this many words or more, mostly letters, is a sentence's even when it names code. */
const WORDY_LINE = 8;

/** Lines that read as sentences: words, most lines not code, and a sentence's end or enough length. */
function isProse(run: Line[]): boolean {
  const all = joined(run);
  const words = (all.match(/\p{L}{2,}/gu) ?? []).length;
  const cjk = CJK_EDGE.test(all);
  if (!cjk && words < 4) return false;
  if (run.filter((l) => readsAsCode(l.text)).length * 2 > run.length) return false;
  // A sentence ends at a word, not inside `etc...` or `a.out`.
  return /\p{Ll}[.?!](?:\s|$)|[。？！]/u.test(all);
}

function listFrom(body: Line[], start: number): { node: List; next: number } {
  const first = BULLET.exec(' '.repeat(body[start].indent) + body[start].text)!;
  const ordered = first[3] !== undefined;
  const items: ListItem[] = [];
  let i = start;
  while (i < body.length) {
    const m = BULLET.exec(' '.repeat(body[i].indent) + body[i].text);
    if (!m || body[i].indent > body[start].indent + 1) break;
    const itemIndent = body[i].indent;
    const parts = [body[i].text.slice(m[0].length - m[1].length)];
    i++;
    // Wrapped lines of the item: indented past its marker, or at its margin when the line before
    // stopped mid-sentence.
    while (
      i < body.length &&
      !BULLET.test(' '.repeat(body[i].indent) + body[i].text) &&
      (body[i].indent > itemIndent || (body[i].indent === itemIndent && !/[.!?:。！？：]$/.test(body[i - 1].text))) &&
      !(i > start + 1 && setInUnder(body[i - 1], body[i]))
    )
      parts.push(body[i++].text);
    items.push({ type: 'listItem', spread: false, children: [paragraph([text(joinLines(parts))])] });
  }
  const startNumber = ordered ? Number(first[3]) : undefined;
  return { node: { type: 'list', ordered, start: startNumber, spread: false, children: items }, next: i };
}

/** Hard-wrapped lines as one line: a space between words, none between two CJK characters. */
function joinLines(parts: string[]): string {
  let out = '';
  for (const p of parts) {
    if (!out) out = p;
    else if (CJK_EDGE.test(out.at(-1)!) && CJK_EDGE.test(p[0])) out += p;
    else out += ` ${p}`;
  }
  return out;
}

const text = (value: string): PhrasingContent => ({ type: 'text', value });
const paragraph = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });
const quotation = (value: string): Blockquote => ({ type: 'blockquote', children: [paragraph([text(value)])] });
const headingNode = (value: string, depth: number): Heading => ({
  type: 'heading',
  depth: depth as Heading['depth'],
  children: [text(value)],
});
const codeNode = (run: Line[], indent: number): Code => ({
  type: 'code',
  lang: null,
  value: run.map((l) => ' '.repeat(l.indent - indent) + l.text).join('\n'),
});
