/**
 * A PDF page's text items (pdf.js getTextContent) laid out again as lines and paragraphs, with rows
 * of aligned cells written as a GitHub-flavoured Markdown table. pdf.js gives each run of text with
 * its position; a line is the items sharing a baseline, a cell break a horizontal gap wider than
 * the text is tall, and a table three or more consecutive lines whose cells start at the same places.
 */

export interface PositionedItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Line {
  y: number;
  height: number;
  cells: Array<{ x: number; text: string }>;
}

/** Items whose baselines differ by less than this share of their height are on one line. */
const SAME_LINE = 0.5;
/** A gap wider than this many text heights separates two cells. */
const CELL_GAP = 1.2;
/** Cell starts within this many points are aligned. */
const ALIGN = 6;
const MIN_TABLE_ROWS = 3;

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
      const cells: Line['cells'] = [];
      let end = -Infinity;
      let space = false;
      for (const item of l.items.sort((a, b) => a.x - b.x)) {
        // Browsers print the space between two cells as a wide blank item: it marks a space, never bridges a gap.
        if (!item.str.trim()) {
          space = true;
          continue;
        }
        const gap = item.x - end;
        const last = cells[cells.length - 1];
        if (last && gap <= l.height * CELL_GAP) last.text += (space || gap > l.height * 0.15 ? ' ' : '') + item.str;
        else cells.push({ x: item.x, text: item.str });
        end = item.x + item.width;
        space = /\s$/.test(item.str);
      }
      for (const c of cells) c.text = c.text.replace(/\s+/g, ' ').trim();
      return { y: l.y, height: l.height, cells: cells.filter((c) => c.text) };
    })
    .filter((l) => l.cells.length > 0);
}

const aligned = (a: Line, b: Line) =>
  a.cells.length === b.cells.length && a.cells.every((c, i) => Math.abs(c.x - b.cells[i].x) <= ALIGN);

const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

/**
 * The page as text lines: paragraphs separated by a blank line where the vertical gap is wider
 * than a line's, tables as Markdown. Each element of the result is one line (or one table row).
 */
export function layoutPage(items: PositionedItem[]): string[] {
  const lines = linesOf(items);
  const body = bodyHeight(lines);
  const out: string[] = [];
  let i = 0;
  let prev: Line | null = null;
  while (i < lines.length) {
    const line = lines[i];
    // A wide gap below the last line, or a jump back up (the next column), starts a paragraph.
    const gap = prev ? prev.y - line.y : 0;
    if (prev && (gap < 0 || gap > Math.max(prev.height, line.height) * 1.9) && out.length && out[out.length - 1] !== '')
      out.push('');
    let j = i + 1;
    if (line.cells.length >= 2) while (j < lines.length && aligned(line, lines[j])) j++;
    if (j - i >= MIN_TABLE_ROWS) {
      if (out.length && out[out.length - 1] !== '') out.push('');
      const rows = lines.slice(i, j).map((l) => l.cells.map((c) => c.text));
      out.push(row(rows[0]), row(rows[0].map(() => '---')), ...rows.slice(1).map(row), '');
      prev = lines[j - 1];
      i = j;
      continue;
    }
    const text = line.cells.map((c) => c.text).join(' ');
    // Larger type on a short line of its own is a heading: chunks take their titles from headings.
    if (body && line.height >= body * 1.2 && line.cells.length === 1 && text.length <= 120 && !/[.,;:]$/.test(text)) {
      if (out.length && out[out.length - 1] !== '') out.push('');
      out.push(`${line.height >= body * 1.6 ? '#' : '##'} ${text}`, '');
    } else out.push(text);
    prev = line;
    i++;
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.filter((l, k) => l !== '' || out[k - 1] !== '');
}

/** The type size most of the page's text is set in (by characters), or 0 for an empty page. */
function bodyHeight(lines: Line[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) {
    const h = Math.round(l.height);
    chars.set(h, (chars.get(h) ?? 0) + l.cells.reduce((n, c) => n + c.text.length, 0));
  }
  let best = 0;
  let most = 0;
  for (const [h, n] of chars) if (n > most) [best, most] = [h, n];
  return best;
}

/**
 * Lines back into paragraphs: the lines of one paragraph joined by spaces (a word broken by a
 * hyphen at a line's end joined again); headings, table rows and blank lines stay as they are.
 */
export function joinParagraphLines(lines: string[]): string {
  const out: string[] = [];
  let para = '';
  const flush = () => {
    if (para) out.push(para);
    para = '';
  };
  for (const line of lines) {
    if (!line.trim() || /^(#{1,6}\s|\|)/.test(line)) {
      flush();
      out.push(line);
    } else if (!para) para = line;
    else para = /[a-z]-$/.test(para) ? para.slice(0, -1) + line : `${para} ${line}`;
  }
  flush();
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}
