import { isEnglishWord } from '../../text/english-frequency.js';

/**
 * A PDF page's text items (pdf.js getTextContent) laid out again as lines and paragraphs, with rows
 * of aligned cells written as a GitHub-flavoured Markdown table. pdf.js gives each run of text with
 * its position; a line is the items sharing a baseline, a cell break a horizontal gap wider than
 * the text is tall, and a table three or more consecutive lines whose cells start at the same places.
 * Lines set wholly in a monospace font are code: fenced, each line kept, spaces kept by column.
 */

export interface PositionedItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Set in a monospace font (pdf.js names its family 'monospace'). */
  mono?: boolean;
  /** Set in a bold face (its font's name says Bold, Black, Heavy or Semibold). */
  bold?: boolean;
  /** Which of the page's links it lies in, if any (a link annotation's index). */
  link?: number;
  /** That link's address, when it has one (a URL, not a place in the document). */
  href?: string;
}

/** Text of emoji alone (with their joiners and variation selectors). */
const EMOJI_ONLY = /^(?:\s|\p{Extended_Pictographic}|\u200d|\ufe0f)+$/u;

/** What the whole document's type says: the body text's size and so which larger lines are headings. */
export interface TypeScale {
  /** The size most non-code text is set in (rounded points), 0 when unknown. */
  body: number;
  /** Where most lines that are not code start over the whole document: a page of list items starts further in. */
  left: number | null;
  /** Where the text's longest lines end over the whole document: a page of short lines ends further in. */
  right: number;
}

interface Segment {
  x: number;
  end: number;
  text: string;
  /** Starts a new cell: a gap wider than CELL_GAP, or a wide blank item (the space a browser prints between cells). */
  cellStart: boolean;
}

interface Line {
  y: number;
  height: number;
  /** Every visible item is in a monospace font: a line of code. */
  mono: boolean;
  /** Every visible item is bold. */
  bold: boolean;
  items: PositionedItem[];
  /** Runs of text between word gaps, in order: where a table's cells may start. */
  segments: Segment[];
  /** Where each cell starts and ends. */
  cells: Array<{ x: number; end: number; text: string }>;
}

/** Items whose baselines differ by less than this share of their height are on one line. */
const SAME_LINE = 0.5;
/** A gap wider than this many text heights separates two cells. */
const CELL_GAP = 1.2;
/**
 * A blank item wider than this many text heights is the gap between two cells, not a word space
 * (a browser prints a word space, as before an inline code span, half the height wide).
 */
const CELL_BLANK = 0.6;
/** A monospace letter is about this many text heights wide (0.6 em) and a little: a gap wider is no single space. */
const MONO_SPACE = 0.75;
/** A gap wider than this many text heights is a word space. */
const WORD_GAP = 0.15;
/** Cell starts within this many points are aligned. */
const ALIGN = 6;
const MIN_TABLE_ROWS = 3;
/** Text holding CJK characters or full-width punctuation (their extensions too: ・ and ー are kana's). */
const hasWide = (text: string) =>
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\u3000-\u303f\uff00-\uffef]/u.test(
    text,
  );
const CJK_END =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\u3000-\u303f\uff00-\uffef]$/u;
const CJK_START =
  /^[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\u3000-\u303f\uff00-\uffef]/u;
const FULL_WIDTH =
  /^[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\u3000-\u303f\uff00-\uffef\s]+$/u;
/** Most lines a row's wrapped cell reaches above or below the row's first line. */
const ROW_LINES = 6;

export function linesOf(items: PositionedItem[]): Line[] {
  // The content stream's order is the reading order (a second column comes after the first): a
  // line is a run of consecutive items on one baseline, never items gathered from across the page.
  const lines: Array<{ y: number; height: number; items: PositionedItem[] }> = [];
  for (const item of items) {
    if (item.str.length === 0) continue;
    const h = item.height || 10;
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.y - item.y) < Math.max(h, line.height) * SAME_LINE) {
      line.items.push(item);
      line.height = Math.max(line.height, h);
    } else lines.push({ y: item.y, height: h, items: [item] });
  }
  return lines
    .map((l) => {
      // Full-width characters say nothing of code: every font sets them one width, so a CJK face is
      // often flagged fixed-pitch. A line is code when its other characters are all monospace, and
      // it is no CJK prose with code spans in it: prose punctuates its clauses (、。，：), and code
      // says them only in a string (`var s = "我是…。";`) or a comment.
      // Nor do emoji (🦄 in `htmlEscape('🦄 & 🐐')`), which an emoji font sets.
      const telling = l.items.filter((it) => it.str.trim() && !FULL_WIDTH.test(it.str) && !EMOJI_ONLY.test(it.str));
      const unquoted = l.items
        .map((it) => it.str)
        .join('')
        .replace(/(["'`]).*?\1/g, '')
        .replace(/(?:\/\/|#|\/\*).*$/, '');
      const prose = /[、。，：；]/.test(unquoted);
      const mono = telling.length > 0 && telling.every((it) => it.mono) && !prose;
      const bold = telling.length > 0 && telling.every((it) => it.bold);
      // A run in a monospace font is a code span (`maxRetries`, `-i`): marked, so the text says it as
      // the Markdown it was printed from did. A code block's lines are written from their items.
      const spanned = (it: PositionedItem) =>
        it.mono && !it.str.includes('`') && telling.includes(it) ? `${CODE_OPEN}${it.str}${CODE_CLOSE}` : it.str;
      const segments: Segment[] = [];
      let end = -Infinity;
      let space = false;
      let wide = false;
      let monoBlank = false;
      for (const item of l.items.sort((a, b) => a.x - b.x)) {
        // Browsers print the space between two cells as a wide blank item: it marks a space, never bridges a gap.
        if (!item.str.trim()) {
          space = true;
          // A space of code is as wide as a letter of it (`* * *`): wider than two is a gap, unless
          // the next word comes a letter on (a browser prints a code span's space wider than it is).
          if (item.mono) monoBlank ||= item.width > l.height * CELL_BLANK * 2;
          else wide ||= item.width > l.height * CELL_BLANK;
          continue;
        }
        const gap = item.x - end;
        wide ||= monoBlank && gap > (item.height || l.height) * MONO_SPACE;
        monoBlank = false;
        const last = segments[segments.length - 1];
        const cellStart = !last || wide || gap > l.height * CELL_GAP;
        const str = spanned(item);
        if (last && !cellStart && !space && gap <= l.height * WORD_GAP && !/\s$/.test(last.text)) last.text += str;
        else segments.push({ x: item.x, end: 0, text: str, cellStart });
        segments[segments.length - 1].end = item.x + item.width;
        end = item.x + item.width;
        space = /\s$/.test(item.str);
        wide = false;
      }
      for (const s of segments) s.text = s.text.replace(/\s+/g, ' ').trim();
      const kept = segments.filter((s) => s.text);
      const cells: Line['cells'] = [];
      for (const s of kept) {
        const last = cells[cells.length - 1];
        if (last && !s.cellStart) {
          last.text += ' ' + s.text;
          last.end = s.end;
        } else cells.push({ x: s.x, end: s.end, text: s.text });
      }
      return { y: l.y, height: l.height, mono, bold, items: l.items, segments: kept, cells };
    })
    .filter((l) => l.cells.length > 0);
}

/** Where a code span's item opens and closes, before they are written as backticks. */
const CODE_OPEN = '\uE000';
const CODE_CLOSE = '\uE001';

/**
 * A line's marked code runs as code spans: runs a space or nothing apart are one span (a call's
 * items, `fs.rm(path, opts)`), a run that is only punctuation is no span of its own.
 */
function codeSpans(text: string): string {
  return text
    .replace(/\uE001(\s*)\uE000/g, '$1')
    .replace(/\uE000([^\uE001]*)\uE001/g, (_, code: string) =>
      /[\p{L}\p{N}]/u.test(code) ? `\`${code.trim()}\`${/\s$/.test(code) ? ' ' : ''}` : code,
    );
}

const near = (a: number, b: number) => Math.abs(a - b) <= ALIGN;

/**
 * A line's cells under a table's columns, or null when it is no row of it. Either a segment starts
 * at every column (a cell whose text runs up to the next column has no gap before it, only a word
 * space: the columns above and below place it), or the line has cells of its own that start at the
 * first column and fall one to a column: a row may leave a cell empty (a benchmark's "fastest" mark)
 * or centre one within its column.
 */
function rowUnder(line: Line, columns: number[], centres: number[] = []): string[] | null {
  const colOf = (x: number) => {
    let col = 0;
    while (col + 1 < columns.length && x >= columns[col + 1] - ALIGN) col++;
    return col;
  };
  const aligned =
    columns.every((x) => line.segments.some((s) => near(s.x, x))) &&
    line.cells.every((c) => columns.some((x) => near(c.x, x)));
  const own = line.cells.map((c) => colOf(c.x));
  const spread =
    line.cells.length >= 2 &&
    near(line.cells[0].x, columns[0]) &&
    new Set(own).size === own.length &&
    // A centred cell lies past its column's start, never past the table's right-hand column by more than a cell.
    line.cells.every((c) => c.x >= columns[0] - ALIGN);
  // A table whose columns are centred (`:---:`) starts each cell where its width puts it: its
  // middle is the column's.
  const centred =
    line.cells.length === centres.length && line.cells.every((c, k) => near((c.x + c.end) / 2, centres[k]));
  if (!aligned && !spread && !centred) return null;
  const cells = columns.map(() => [] as string[]);
  if (centred && !aligned && !spread) line.cells.forEach((c, k) => cells[k].push(c.text));
  else if (aligned) for (const s of line.segments) cells[colOf(s.x)].push(s.text);
  else line.cells.forEach((c, k) => cells[own[k]].push(c.text));
  return cells.map((c) => c.join(' '));
}

/**
 * The header a table's first row may have right above it, split into the columns: cells of its
 * own, one to a column (a header cell is often centred), or one run of text across them all (a
 * browser prints adjacent header cells as one item) split at the word nearest each column.
 */
function headerOver(line: Line, columns: number[]): string[] | null {
  if (line.cells.length === columns.length) return line.cells.map((c) => c.text);
  if (line.segments.length !== 1) return null;
  const only = line.segments[0];
  if (!near(only.x, columns[0]) || only.end < columns[columns.length - 1]) return null;
  const words = [...only.text.matchAll(/\S+/g)];
  const perChar = (only.end - only.x) / only.text.length;
  const starts: number[] = [0];
  for (const x of columns.slice(1)) {
    let best = -1;
    for (let w = 1; w < words.length; w++) {
      const wx = only.x + words[w].index * perChar;
      if (
        w > starts[starts.length - 1] &&
        (best < 0 || Math.abs(wx - x) < Math.abs(only.x + words[best].index * perChar - x))
      )
        best = w;
    }
    if (best < 0) return null;
    starts.push(best);
  }
  return starts.map((w, k) =>
    words
      .slice(w, starts[k + 1] ?? words.length)
      .map((m) => m[0])
      .join(' '),
  );
}

const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

/**
 * A block of code lines as they were printed: each item placed at the column its position gives
 * (a monospace font has one advance), so indentation and a box-drawing table's alignment survive.
 * A wider gap between two lines than their pitch is a blank line of the code.
 */
function codeLines(block: Line[]): string[] {
  const advances = block
    .flatMap((l) => l.items)
    .filter((it) => it.str.length >= 2 && it.width > 0 && !hasWide(it.str))
    .map((it) => it.width / it.str.length)
    .sort((a, b) => a - b);
  const advance = advances[Math.floor(advances.length / 2)] || block[0].height * 0.6;
  const left = Math.min(...block.flatMap((l) => l.items.filter((it) => it.str.trim()).map((it) => it.x)));
  const pitch = Math.min(
    ...block
      .slice(1)
      .map((l, k) => block[k].y - l.y)
      .filter((g) => g > 0),
    Infinity,
  );
  const out: string[] = [];
  block.forEach((line, k) => {
    const gap = k > 0 ? block[k - 1].y - line.y : 0;
    if (k > 0 && Number.isFinite(pitch) && gap > pitch * 1.5) out.push('');
    let text = '';
    let end = left;
    let wide = false;
    for (const it of line.items) {
      if (!it.str.trim()) continue;
      // A CJK character is set wider than the code's advance, in a fallback face: after one, the
      // spaces before an item are its gap from the item before, not its column.
      const pad = wide ? Math.round((it.x - end) / advance) : Math.round((it.x - left) / advance) - text.length;
      text += ' '.repeat(Math.max(0, pad)) + it.str;
      end = it.x + it.width;
      wide ||= hasWide(it.str);
    }
    out.push(text.replace(/\s+$/, ''));
  });
  return out;
}

/**
 * A table whose first cells are code spans and whose last is a description that wraps: a browser
 * centres the short cells beside it, so each row reads as a line of code (at the description's
 * middle) and then the description's lines, all to the right of that code. Two or more such rows,
 * their short cells under the same columns, are the table; null for anything else (code proper is
 * followed by more code, or by text that starts at the margin, not right of it).
 */
function describedRows(lines: Line[], at: number): { columns: number[]; rows: string[][]; end: number } | null {
  const first = lines[at];
  if (!first.mono || first.cells.length < 2) return null;
  const columns = first.cells.map((c) => c.x);
  const rows: string[][] = [];
  let descX = NaN;
  let j = at;
  // After the first row, a row set in the body font (a name not marked as code) counts as well.
  while (j < lines.length && (lines[j].mono || j > at)) {
    const code = lines[j];
    // A description of one line is printed on its row's baseline, with its row: the line's last cell.
    const last = code.cells[code.cells.length - 1];
    const inline = !Number.isNaN(descX) && code.cells.length > columns.length && near(last.x, descX);
    const key = inline
      ? { ...code, cells: code.cells.slice(0, -1), segments: code.segments.filter((s) => s.x < descX - ALIGN) }
      : code;
    const cells = rowUnder(key, columns);
    if (!cells) break;
    const description: string[] = inline ? [last.text] : [];
    if (!inline) {
      const start = lines[j + 1];
      if (!start || start.mono) break;
      const right = code.segments[code.segments.length - 1].end;
      if (start.cells[0].x < right + code.height || Math.abs(start.y - code.y) > code.height * 8) break;
      if (Number.isNaN(descX)) descX = start.cells[0].x;
      if (!near(start.cells[0].x, descX)) break;
    }
    let k = j + 1;
    for (; k < lines.length && !lines[k].mono && near(lines[k].cells[0].x, descX); k++)
      description.push(lines[k].cells.map((c) => c.text).join(' '));
    rows.push([...cells, description.join(' ')]);
    j = k;
  }
  return rows.length >= 2 ? { columns: [...columns, descX], rows, end: j } : null;
}

/**
 * The header above such a table: the short plain lines just over its first row (a header cell that
 * wraps or is centred is several lines and items), each piece put in the column it lies in, top
 * line first. `lines` is how many lines of output they were.
 */
function headerAbove(
  lines: Line[],
  at: number,
  columns: number[],
  from: number,
): { cells: string[]; lines: number } | null {
  const top = lines[at + 1].y;
  const pieces: Array<{ col: number; y: number; text: string }> = [];
  let k = at - 1;
  // Lines before `from` are already part of what was written above (the last row's description).
  for (; k >= from; k--) {
    const l = lines[k];
    if (l.mono || l.y > top + l.height * 4 || l.cells.some((c) => c.text.length > 30 || c.x < columns[0] - ALIGN))
      break;
    for (const c of l.cells) {
      let col = 0;
      while (col + 1 < columns.length && c.x >= columns[col + 1] - ALIGN) col++;
      pieces.push({ col, y: l.y, text: c.text });
    }
  }
  const count = at - 1 - k;
  if (count === 0) return null;
  const cells = columns.map((_, c) =>
    pieces
      .filter((p) => p.col === c)
      .sort((a, b) => b.y - a.y)
      .map((p) => p.text)
      .join(' '),
  );
  return cells.filter(Boolean).length >= 2 ? { cells, lines: count } : null;
}

/**
 * The table starting at line `at`, if one does: its first line's cells give the columns, and the
 * lines under them are its rows. A row whose every cell is a code span is set wholly in monospace:
 * with two cells or more it is a row still, not code (code is one run per line). Three rows make a
 * table, or two of code spans under a header (`above`, the plain line just written: set close to the
 * first row, or further off, cell padding, when its cells are as many as the columns). At the top of a page a
 * header and one row are enough: the rest of a table the break cut (joinCodeAcrossPages puts it
 * back with its first part).
 */
function tableAt(
  lines: Line[],
  at: number,
  above: Line | null,
  gap: number,
  pageTop: boolean,
): { header: string[] | null; rows: string[][]; end: number } | null {
  const line = lines[at];
  const columns = line.cells.map((c) => c.x);
  const centres = line.cells.map((c) => (c.x + c.end) / 2);
  if (columns.length < 2) return null;
  const rows = [line.cells.map((c) => c.text)];
  let j = at + 1;
  // Whether each row's first line is code.
  const mono = [line.mono];
  // Where the last row's first line is, and whether it is only a key so far (a row whose other cells wrap).
  let rowY = line.y;
  let keyOnly = -1;
  for (; j < lines.length; j++) {
    const next = lines[j];
    // A row's cells print one after the other, each whole: a cell that wraps (`string |` over
    // `Buffer`) or a centred description comes as lines of its own right of the key, around its line.
    if (rows.length > 1 && goesOn(next, columns, rowY)) {
      const row = rows[rows.length - 1];
      for (const c of next.cells) {
        const k = columnOf(c.x, columns);
        row[k] = row[k] ? `${row[k]} ${c.text}` : c.text;
      }
      continue;
    }
    if (keyOnly >= 0 && rows[rows.length - 1].filter(Boolean).length < 2) break;
    const r = !next.mono || next.cells.length >= 2 ? rowUnder(next, columns, centres) : null;
    const key = !r && next.cells.length === 1 && near(next.cells[0].x, columns[0]) && next.segments[0].end < columns[1];
    if (!r && !key) break;
    rows.push(r ?? columns.map((_, k) => (k === 0 ? next.cells[0].text : '')));
    mono.push(next.mono);
    rowY = next.y;
    keyOnly = key ? j : -1;
  }
  // A key alone that nothing filled was a line after the table, not a row of it.
  if (keyOnly >= 0 && rows[rows.length - 1].filter(Boolean).length < 2) {
    rows.pop();
    mono.pop();
    j = keyOnly;
  }
  const close =
    above !== null &&
    gap > 0 &&
    (gap <= line.height * 1.9 || (above.cells.length === columns.length && gap <= line.height * 3));
  // Over code-span rows, only a line of as many cells is a header: a sentence over code is no header.
  const header = close && (!line.mono || above.cells.length === columns.length) ? headerOver(above, columns) : null;
  const enough = rows.length >= MIN_TABLE_ROWS || (line.mono && header !== null && rows.length >= 2);
  // Code lines alone make no table unless under a header (rows of code spans), and never at a page's top.
  if (line.mono && !header && mono.every(Boolean)) return null;
  if (enough || (rows.length === 2 && pageTop && columns.length >= 3)) return { header, rows, end: j };
  return null;
}

/** The column a cell starting at x lies in: the last whose start it reaches. */
function columnOf(x: number, columns: number[]): number {
  let col = 0;
  while (col + 1 < columns.length && x >= columns[col + 1] - ALIGN) col++;
  return col;
}

/**
 * Whether a line goes on with the row above: it lies right of the key column, within a few lines
 * of the row's first line (a centred cell starts above it and ends below).
 */
function goesOn(line: Line, columns: number[], rowY: number): boolean {
  return line.cells.every((c) => c.x >= columns[1] - ALIGN) && Math.abs(line.y - rowY) <= line.height * ROW_LINES * 1.5;
}

/** How far a heading's size is above the body's: 2× (h1) "#", 1.5× (h2) "##", anything larger "###". */
function headingMarks(height: number, body: number): string {
  const r = height / body;
  return r >= 1.7 ? '#' : r >= 1.35 ? '##' : '###';
}

/**
 * The page as text lines: paragraphs separated by a blank line where the vertical gap is wider
 * than a line's, tables as Markdown, code fenced. Each element of the result is one line (or one
 * table row). `scale` gives the document's body size (a page of code has no body text of its own).
 */
export function layoutPage(items: PositionedItem[], scale?: TypeScale): string[] {
  const { body, left } = scale ?? typeScale([items]);
  const lines = withoutLeadingLinkRows(linesOf(items), body);
  const right = scale?.right ?? textRight(lines);
  const out: string[] = [];
  let i = 0;
  let prev: Line | null = null;
  let plainPrev = false;
  // Where the last indented line ended (-1 after anything else): a list item ends where its next word would have fit.
  let itemEnd = -1;
  // The indents of the open list's levels, outermost first: an item further in than its level is nested.
  let levels: number[] = [];
  // The first line not yet in a table or a code block written out: a header above a table is after it.
  let written = 0;
  while (i < lines.length) {
    const line = lines[i];
    // A wide gap below the last line, or a jump back up (the next column), starts a paragraph.
    const gap = prev ? prev.y - line.y : 0;
    if (prev && (gap < 0 || gap > Math.max(prev.height, line.height) * 1.9) && out.length && out[out.length - 1] !== '')
      out.push('');
    const described = line.mono ? describedRows(lines, i) : null;
    if (described) {
      // Rows of code-span cells beside a wrapped description: a table (an options table), not code.
      const header = headerAbove(lines, i, described.columns, written);
      if (header) for (let k = 0; k < header.lines;) if (out.pop() !== '') k++;
      while (out.length && out[out.length - 1] === '') out.pop();
      if (out.length) out.push('');
      const head = header?.cells ?? described.columns.map(() => '');
      out.push(row(head), row(head.map(() => '---')), ...described.rows.map(row), '');
      prev = lines[described.end - 1];
      plainPrev = false;
      itemEnd = -1;
      i = written = described.end;
      continue;
    }
    const table = tableAt(lines, i, prev && plainPrev ? prev : null, gap, out.length === 0);
    // A list item that is one code span (`- \`2\``) is set wholly in monospace too: it is the next
    // item when it starts where the item above does, with no paragraph's gap (a code block has one).
    const item =
      line.mono &&
      itemEnd >= 0 &&
      prev !== null &&
      gap <= Math.max(prev.height, line.height) * 1.9 &&
      Math.abs(prev.cells[0].x - line.cells[0].x) < body / 2;
    if (line.mono && !table && !item) {
      // Consecutive lines of code, a blank line apart at most, are one block: fenced, never a table.
      let j = i + 1;
      while (j < lines.length && lines[j].mono && lines[j - 1].y - lines[j].y > 0) {
        const g = lines[j - 1].y - lines[j].y;
        if (g > Math.max(lines[j].height, lines[j - 1].height) * 5) break;
        j++;
      }
      if (out.length && out[out.length - 1] !== '') out.push('');
      out.push('```', ...codeLines(lines.slice(i, j)), '```', '');
      prev = lines[j - 1];
      plainPrev = false;
      itemEnd = -1;
      i = written = j;
      continue;
    }
    if (table) {
      const { header, rows, end } = table;
      if (header) {
        while (out[out.length - 1] === '') out.pop();
        out.pop();
      }
      if (out.length && out[out.length - 1] !== '') out.push('');
      const head = header ?? rows.shift()!;
      out.push(row(head), row(head.map(() => '---')), ...rows.map(row), '');
      prev = lines[end - 1];
      plainPrev = false;
      itemEnd = -1;
      i = written = end;
      continue;
    }
    const text = line.cells.map((c) => c.text).join(' ');
    // Larger type than the body's on a short line of its own is a heading: chunks take their titles from
    // headings. So is a bold line set apart from the next (a browser prints h4-h6 in bold at the body's size).
    const next = lines[i + 1];
    // A next line above this one (the print header, the next column) is no line under it either.
    const below = next ? line.y - next.y : Infinity;
    const apart = below < 0 || below > Math.max(line.height, next?.height ?? 0) * 1.9;
    const larger = body && line.height >= body * 1.12;
    if (
      (larger || (line.bold && apart)) &&
      line.cells.length === 1 &&
      text.length <= 120 &&
      !/[.,;:。，；：]$/.test(text)
    ) {
      // A badge on the title's line, wrapped under it at the title's size: its image's alt text, one
      // link ("Actions Status: test"). No heading of its own, or every section would be under it.
      const visible = line.items.filter((it) => it.str.trim());
      const last = out.filter((l) => l !== '').at(-1) ?? '';
      if (larger && /^# /.test(last) && visible[0]?.href && visible.every((it) => it.link === visible[0].link)) {
        prev = line;
        i++;
        continue;
      }
      if (out.length && out[out.length - 1] !== '') out.push('');
      out.push(`${larger ? headingMarks(line.height, body) : '####'} ${text}`, '');
      plainPrev = false;
      itemEnd = -1;
    } else {
      // A list's indent is a few ems (nested ones more); further in is a second column, not a list.
      const indent = left === null ? 0 : line.cells[0].x - left;
      // A list nested in an open list's item may go further in: a level or so past the deepest open one.
      const indented = indent > body && (indent < body * 7 || indent < (levels.at(-1) ?? -Infinity) + body * 4);
      // An indented line starts an item of a list (a browser prints the bullet as a drawing, not as
      // text) unless it continues the line above: that line ran to the right edge, its next word did not fit.
      const first = line.segments[0];
      // CJK text breaks between any two characters: its next word is one character.
      const word =
        /^(?:[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}]|[^\s\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}]+)/u.exec(
          first.text,
        )?.[0] ?? '';
      const wordWidth = ((first.end - first.x) * word.length) / Math.max(1, first.text.length);
      // A CJK line ending its sentence may fill the line by chance (every character is one em): the
      // next indented line is a new item.
      const stopped = /[。！？]$/.test(out[out.length - 1] ?? '');
      // A line opening with a code span and a colon ("`maxWrite`: the maximum…") is an option's
      // entry: the next item, even where its name would not have fit on the line above.
      const visible = line.items.filter((it) => it.str.trim());
      const labelled = visible.length > 1 && visible[0].mono && /^\s*:/.test(visible[1].str);
      // A line nearly as long as the text is wide, its sentence left open, goes on in a lower-case
      // word: its box (a quote, a note) ends short of the page's right edge.
      const carriesOn =
        itemEnd >= right - body * 8 && /^\p{Ll}/u.test(text) && !/[.!?:;。！？：]$/.test(out[out.length - 1] ?? '');
      // Nor does a line below a paragraph's gap go on with the line above (a loose list's next item).
      const gapAbove = out.length > 0 && out[out.length - 1] === '';
      const starts =
        indented &&
        (labelled || gapAbove || (!carriesOn && (itemEnd < 0 || stopped || itemEnd + body * 0.3 + wordWidth <= right)));
      // An ordered list's number is printed as text ("1."): the item is written with it, not as a bullet.
      const numbered = /^\d{1,3}[.)]\s/.test(text);
      if (!indented) levels = [];
      else if (starts) {
        levels = levels.filter((x) => x < indent + body / 2);
        if (levels.length === 0 || indent > levels[levels.length - 1] + body / 2) levels.push(indent);
      }
      const mark = `${'  '.repeat(Math.max(0, levels.length - 1))}- `;
      out.push(starts && !numbered ? `${mark}${linked(line, text)}` : linked(line, text));
      itemEnd = indented ? line.segments[line.segments.length - 1].end : -1;
      plainPrev = true;
    }
    prev = line;
    i++;
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.filter((l, k) => l !== '' || out[k - 1] !== '').map(codeSpans);
}

/**
 * A line that is one link and nothing else (a list of links to posts, a "see also"), written as a
 * Markdown link as an HTML page's would be: it is where to read more, not something said.
 */
function linked(line: Line, text: string): string {
  const visible = line.items.filter((it) => it.str.trim());
  const href = visible[0]?.href;
  if (!href || !visible.every((it) => it.link === visible[0].link) || /[()\s<>]/.test(href)) return text;
  // An address printed as itself is already what a reader needs.
  if (/^(?:https?:\/\/|www\.)\S+$/.test(text)) return text;
  return `[${text.replace(/[[\]\\]/g, '\\$&')}](${href})`;
}

/**
 * A page's lines without the rows of links above its first line of text: a README's badges (a
 * browser prints an image it did not load as its alt text, "Build Status", "npm version", each a
 * link) or a site's navigation. A row is three or more links and nothing else; text is a line of
 * the body's size that is no such row (a print header is smaller, a heading larger).
 */
function withoutLeadingLinkRows(lines: Line[], body: number): Line[] {
  const isLinkRow = (l: Line) => {
    const visible = l.items.filter((it) => it.str.trim());
    return visible.every((it) => it.link !== undefined) && new Set(visible.map((it) => it.link)).size >= 3;
  };
  const text = lines.findIndex((l) => !isLinkRow(l) && (!body || Math.abs(l.height - body) <= body * 0.15));
  return lines.filter((l, k) => !(isLinkRow(l) && (text < 0 || k < text)));
}

/**
 * The right edge of the page's text: where its lines that are not code end furthest, the top and
 * bottom lines left out (a print header's date or a footer's page number sits further right).
 */
function textRight(lines: Line[]): number {
  const ys = lines.map((l) => l.y);
  const [top, bottom] = [Math.max(...ys), Math.min(...ys)];
  const body = lines.filter((l) => !l.mono && (lines.length < 4 || (l.y !== top && l.y !== bottom)));
  return Math.max(0, ...body.map((l) => l.segments[l.segments.length - 1].end));
}

/**
 * The left edge of the text: the leftmost start that a good share of the lines that are not code
 * share. Not the commonest start: a README that is mostly lists has more lines at their indent. Not
 * the leftmost either: a line set apart (a print header, a centred title) may start further left.
 */
function textLeft(lines: Line[]): number | null {
  const starts = new Map<number, number>();
  for (const l of lines)
    if (!l.mono) starts.set(Math.round(l.cells[0].x), (starts.get(Math.round(l.cells[0].x)) ?? 0) + 1);
  const most = Math.max(0, ...starts.values());
  const shared = [...starts].filter(([, n]) => n >= Math.max(2, most * LEFT_SHARE)).map(([x]) => x);
  return shared.length > 0 ? Math.min(...shared) : null;
}

/** The share of the commonest start's lines a start further left needs to be the text's edge. */
const LEFT_SHARE = 0.25;

/**
 * The body size of a whole document: the size most of its non-code text is set in, by characters;
 * and its text's left edge, over all its pages. A page of code alone has neither.
 */
export function typeScale(pages: PositionedItem[][]): TypeScale {
  const chars = new Map<number, number>();
  const wide = new Map<number, number>();
  for (const items of pages) {
    // Not the page's first and last lines: a print header and footer, small and on every page,
    // would outweigh a short document's body.
    const ys = items.filter((it) => it.str.trim()).map((it) => it.y);
    // A loop, not Math.max(...ys): a page may hold more items than a call takes arguments.
    const [top, bottom] = ys.reduce(([hi, lo], y) => [Math.max(hi, y), Math.min(lo, y)], [-Infinity, Infinity]);
    const many = new Set(ys.map(Math.round)).size >= 4;
    const running = (it: PositionedItem) => many && (Math.abs(it.y - top) < 1 || Math.abs(it.y - bottom) < 1);
    for (const it of items) {
      if (!it.str.trim() || (it.mono && !FULL_WIDTH.test(it.str)) || running(it)) continue;
      const h = Math.round(it.height);
      const sizes = it.mono ? wide : chars;
      sizes.set(h, (sizes.get(h) ?? 0) + it.str.length);
    }
  }
  // A CJK face is often flagged fixed-pitch, so its characters count at a size proportional text
  // is set in too (or in a document of CJK alone): those in a code block are set at the code's size.
  for (const [h, n] of wide) if (chars.size === 0 || chars.has(h)) chars.set(h, (chars.get(h) ?? 0) + n);
  let body = 0;
  let most = 0;
  for (const [h, n] of chars) if (n > most) [body, most] = [h, n];
  const lines = pages.map((items) => linesOf(items));
  // Not a page's first and last lines either: a print header and footer start further left.
  const inner = lines.flatMap((page) => {
    const ys = page.map((l) => l.y);
    const [top, bottom] = [Math.max(...ys), Math.min(...ys)];
    return page.length >= 4 ? page.filter((l) => l.y !== top && l.y !== bottom) : page;
  });
  return { body, left: textLeft(inner), right: Math.max(0, ...lines.map(textRight)) };
}

/** A line naming a value: a capitalised label of a word or two, a colon, the value. */
const FIELD_LINE = /^\p{Lu}\p{Ll}+(?: \p{Ll}+)?: \S/u;
const MAX_FIELD = 80;

/**
 * Lines back into paragraphs: the lines of one paragraph joined by spaces (a word broken by a
 * hyphen at a line's end joined again); headings, table rows, list items' first lines, blank lines
 * and fenced code (every line of it) stay as they are.
 */
export function joinParagraphLines(lines: string[]): string {
  // A word written with its hyphen elsewhere on the page keeps it at a line's end too, as does a
  // name that goes on as code ("japanese-" then "holidays.js"): a browser breaks lines at hyphens.
  const hyphenated = new Set(
    lines
      .join(' ')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+-[\p{L}\p{N}]+/gu) ?? [],
  );
  const keepsHyphen = (para: string, line: string) => {
    const head = /[\p{L}\p{N}]+-$/u.exec(para)?.[0] ?? '';
    const next = line.split(/\s/)[0];
    const tail = /^[\p{L}\p{N}]+/u.exec(next)?.[0] ?? '';
    const word = head.slice(0, -1);
    // Two words joined ("no-" then "transform") are not one word split: hyphenation splits a word
    // into pieces ("compres-", "sion") that rejoined make the word.
    const words = isEnglishWord(word) && isEnglishWord(tail) && !isEnglishWord(word + tail);
    return /[./_()]/.test(next) || words || hyphenated.has(`${head}${tail}`.toLowerCase());
  };
  const out: string[] = [];
  let para = '';
  const flush = () => {
    if (para) out.push(para);
    para = '';
  };
  let fenced = false;
  for (const line of lines) {
    if (line.startsWith('```') || fenced) {
      if (line.startsWith('```')) fenced = !fenced;
      flush();
      out.push(line);
    } else if (!line.trim() || /^(#{1,6}\s|\|)/.test(line)) {
      flush();
      out.push(line);
    } else if (/^(?: *- |\d{1,3}[.)]\s)/.test(line)) {
      flush();
      para = line;
    } else if (!para) para = line;
    // A `Name: value` line over another (`Type: Number` over `Default: 1kb`, broken by <br>) stays a
    // line of its own: a hard line break.
    else if (FIELD_LINE.test(para) && para.length <= MAX_FIELD && FIELD_LINE.test(line)) {
      out.push(`${para}\\`);
      para = line;
    }
    // A code span the line broke goes on as the next line's first span: one span again, its
    // hyphen or its space kept ("`no-`" then "`transform`").
    else if (/`$/.test(para) && line.startsWith('`'))
      para = `${para.slice(0, -1)}${/-`$/.test(para) ? '' : ' '}${line.slice(1)}`;
    else if (/[a-z]-$/.test(para)) para = keepsHyphen(para, line) ? para + line : para.slice(0, -1) + line;
    // CJK text wraps between any two characters, with no space to put back.
    else para = CJK_END.test(para) && CJK_START.test(line) ? para + line : `${para} ${line}`;
  }
  flush();
  return out.join('\n');
}
