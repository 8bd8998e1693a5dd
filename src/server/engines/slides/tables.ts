import type { ChartSpec } from './model.js';

/** A table of numbers found in a source: its label column and up to four numeric columns. */
export interface NumberTable {
  heading: string;
  categories: string[];
  series: Array<{ name: string; values: number[]; unit: string }>;
}

/**
 * The unit of a column: what its header names in brackets ("Price (USD)", "Weight, kg") or the
 * symbol its cells carry ($, %, €); '' when neither says. Series share an axis only when this agrees.
 */
export function unitOf(header: string, cells: string[]): string {
  const named = /[([]\s*([^)\]]{1,12}?)\s*[)\]]\s*$|,\s*([A-Za-z%$€£¥]{1,5})\s*$/.exec(header);
  const raw = (named?.[1] ?? named?.[2] ?? '').trim();
  // A symbol names the unit when most cells carry it, not one stray "$".
  const syms = cells.map((c) => /[$€£¥%]/.exec(c)?.[0]).filter(Boolean);
  const suffixes = cells.map(suffixUnit).filter(Boolean);
  const sym = syms.length * 2 >= cells.length ? syms[0]! : suffixes.length * 2 >= cells.length ? suffixes[0] : '';
  const norm = (u: string) =>
    ({
      $: 'usd',
      usd: 'usd',
      us$: 'usd',
      '€': 'eur',
      eur: 'eur',
      '£': 'gbp',
      gbp: 'gbp',
      '¥': 'cny',
      cny: 'cny',
      rmb: 'cny',
      元: 'cny',
      percent: '%',
    })[u.toLowerCase()] ?? u.toLowerCase();
  return norm(raw || sym);
}

/**
 * A figure with what follows it: "11,083,134 ops/sec", "14.261ms", "306.41 KB (gzip 134.52 KB)",
 * "±1.06%", "11.7x slower" (a unit and up to two words after it, kept as the axis's label).
 */
const FIGURE =
  /^[^\p{L}\p{N}$€£¥(+-]*([-+±]?)\s*([$€£¥]?)\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|[\p{L}µ]{1,6}(?:\/[\p{L}]{1,6})?(?:\s+\p{L}{2,12}){0,2})?\s*(?:\([^)]*\))?$/u;

/** A cell as a reader sees it: bold, emphasis and code marks are markup, not part of the figure. */
const cellText = (cell: string) =>
  cell
    .replace(/\*\*|__|`/g, '')
    .replace(/^\*(.*)\*$/, '$1')
    .trim();

/** The unit a cell's figure carries after it ("ops/sec", "ms", "KB", "x slower"), lower-cased; '' for none. */
export function suffixUnit(cell: string): string {
  const m = FIGURE.exec(cellText(cell));
  return m?.[5] && m[5] !== '%' ? m[5].toLowerCase() : '';
}

/** "1,234", "12%", "$3.5", "-4.2", "(7)", "14.261ms", "11,083,134 ops/sec", "**11.7x** slower" → number; anything else → null. */
export function parseNumber(cell: string): number | null {
  const s = cellText(cell).replace(/^\((\d[\d,.]*)\)$/, '-$1');
  const m = FIGURE.exec(s);
  if (!m) return null;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * Number(m[3].replace(/,/g, '') + (m[4] ?? ''));
}

/** "Bunyan average: 377.434ms": a name and one figure, as benchmark output and settings list them. */
const NAMED_FIGURE = /^\s*([^:|]{1,60}?)\s*[:=]\s*(\S[^:|]{0,30})$/;

/**
 * A code block that is figures, not code: three or more `name: value` lines whose values are
 * figures of one unit ("Pino average: 114.801ms"), and at most a caption line beside them
 * ("BASIC benchmark averages"). Values as written; null for anything else (code, settings).
 */
export function namedFigures(code: string): { caption: string; rows: Array<[string, string]> } | null {
  const rows: Array<[string, string]> = [];
  const others: string[] = [];
  for (const line of code.split('\n')) {
    if (!line.trim()) continue;
    const m = NAMED_FIGURE.exec(line);
    if (m && parseNumber(m[2]) !== null) rows.push([m[1].trim(), m[2].trim()]);
    else others.push(line.trim());
  }
  const units = new Set(rows.map((r) => unitOf('', [r[1]])));
  if (rows.length < 3 || units.size !== 1 || units.has('') || others.length > 1) return null;
  const caption = others[0] ?? '';
  return { caption: caption.length <= 80 && !/[|{};=]/.test(caption) ? caption : '', rows };
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** Rows of cells → a table of numbers when a label column and at least one all-numeric column exist. */
function toTable(heading: string, header: string[], rows: string[][]): NumberTable | null {
  // A row shorter than the header lost cells to a span: its missing cells are empty.
  rows = rows
    .filter((r) => r.length >= 2 && r.length <= header.length)
    .map((r) => [...r, ...Array<string>(header.length - r.length).fill('')]);
  // A header row of figures (a table printed without one) is a row like the others; the columns are named by their unit.
  if (header.slice(1).some((c) => parseNumber(c) !== null)) {
    rows = [header, ...rows];
    header = header.map((_, c) => (c === 0 ? '' : suffixUnit(rows[0][c]) || (/%/.test(rows[0][c]) ? '%' : '')));
  }
  if (rows.length < 2 || header.length < 2) return null;
  const numericCols = header.map((_, c) => c).filter((c) => c > 0 && rows.every((r) => parseNumber(r[c]) !== null));
  if (numericCols.length === 0) return null;
  const categories = rows.slice(0, 12).map((r) => plainLabel(r[0]));
  // Categories are what the rows are about: labels, each its own (never "│" or a blank, never repeated).
  if (categories.some((c) => !/[\p{L}\p{N}]/u.test(c) || BOX.test(c)) || new Set(categories).size < categories.length)
    return null;
  return {
    heading,
    categories,
    series: numericCols.slice(0, 4).map((c) => {
      const cells = rows.map((r) => r[c]);
      const unit = unitOf(header[c], cells);
      const name = plainLabel(header[c]);
      // A unit the cells carry ("x slower") and the header does not name is the series' label.
      const carried = mostCommon(cells.map(suffixUnit).filter(Boolean));
      const label = !name
        ? carried || ''
        : carried && !name.toLowerCase().includes(carried)
          ? `${name} (${carried})`
          : name;
      return { name: label || `Column ${c + 1}`, values: rows.slice(0, 12).map((r) => parseNumber(r[c])!), unit };
    }),
  };
}

/** The value most of the list has (the longer on a tie: "x slower" over "x"), '' for an empty list. */
function mostCommon(values: string[]): string {
  const n = new Map<string, number>();
  for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)[0]?.[0] ?? '';
}

/** Box-drawing characters: a table drawn in a code block, never a category. */
const BOX = /[\u2500-\u257f]/;

/** A cell or header as a label: its text without Markdown marks or link syntax. */
function plainLabel(cell: string): string {
  return cell
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`|\\/g, '')
    .trim();
}

/**
 * Every table of numbers in a text: Markdown pipe tables and comma-separated blocks (a header line
 * and two or more rows with the same number of cells). The nearest Markdown heading above names it.
 */
export function findNumberTables(text: string): NumberTable[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: NumberTable[] = [];
  let heading = '';
  let fence = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Inside a fenced code block only benchmark output ("name: figure" lines) is read: a box-drawing
    // or comma-separated text there is program output, never a table.
    const f = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (f && (!fence || f.startsWith(fence[0]))) {
      fence = fence ? '' : f;
      continue;
    }
    const h = /^#{1,6}\s+(.+)$/.exec(line.trim());
    if (h && !fence) heading = plainLabel(h[1]);
    if (!fence && /^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const header = splitRow(line);
      const rows: string[][] = [];
      let j = i + 2;
      for (; j < lines.length && /^\s*\|.*\|\s*$/.test(lines[j]); j++) rows.push(splitRow(lines[j]));
      const t = toTable(captionAbove(lines, i) || heading, header, rows);
      if (t) out.push(t);
      i = j - 1;
      continue;
    }
    const pair = NAMED_FIGURE.exec(line);
    if (pair && parseNumber(pair[2]) !== null) {
      const rows: string[][] = [];
      let j = i;
      for (let m; j < lines.length && (m = NAMED_FIGURE.exec(lines[j])) && parseNumber(m[2]) !== null; j++)
        rows.push([m[1].trim(), m[2].trim()]);
      const units = new Set(rows.map((r) => unitOf('', [r[1]])));
      // Figures with one unit ("ms") are measurements; bare numbers in `name: value` lines are settings.
      if (rows.length >= 3 && units.size === 1 && !units.has('')) {
        // The line above names the figures ("BASIC benchmark averages"), else the section heading does.
        const above = lines[i - 1]?.trim() ?? '';
        const name = above && !/[|:]/.test(above) && !/^#/.test(above) && above.length <= 80 ? above : heading;
        const t = toTable(name || heading, ['', name || 'Value'], rows);
        if (t) out.push(t);
        i = j - 1;
        continue;
      }
    }
    if (!fence && line.includes(',') && !line.includes('|')) {
      const width = line.split(',').length;
      const block: string[][] = [];
      let j = i;
      for (; j < lines.length && lines[j].trim() && lines[j].split(',').length === width; j++)
        block.push(lines[j].split(',').map((c) => c.trim()));
      if (block.length >= 3 && width >= 2 && width <= 8) {
        const t = toTable(heading, block[0], block.slice(1));
        if (t && block[0].every((c) => parseNumber(c) === null)) {
          out.push(t);
          i = j - 1;
        }
      }
    }
  }
  return out;
}

/**
 * The caption a table has right above it: a short line of its own that introduces it ("Table 2:
 * Startup time", "**Benchmarks (ops/sec)**", "Results:"), else '' (the section heading names it).
 */
function captionAbove(lines: string[], at: number): string {
  let k = at - 1;
  while (k >= 0 && !lines[k].trim()) k--;
  const above = lines[k]?.trim() ?? '';
  if (!above || /^(#|\||```|~~~|[-*+]\s|\d+[.)]\s)/.test(above) || above.length > 80) return '';
  const blankBetween = k < at - 1;
  const caption =
    /^(\*\*|__).+(\*\*|__)$/.test(above) ||
    /^(table|figure)\s*\d*[:.]/i.test(above) ||
    (/:$/.test(above) && above.split(/\s+/).length <= 6);
  return caption && (blankBetween || k === at - 1)
    ? plainLabel(above)
        .replace(/[:：]$/, '')
        .trim()
    : '';
}

/** The same table found twice (a page added twice, a table repeated across pages): one key. */
export function tableKey(t: NumberTable): string {
  return JSON.stringify([t.categories, t.series.map((s) => [s.name, s.values])]);
}

/** Years or quarters along the axis read as a trend (line); anything else compares (bar). */
export function chartFor(table: NumberTable, sourceTitle: string, lang: 'en' | 'zh-Hans'): ChartSpec {
  const trend = table.categories.every((c) => /^(19|20)\d{2}\b|^Q[1-4]\b|^\d{4}-\d{2}/i.test(c));
  return {
    type: trend && table.categories.length >= 3 ? 'line' : 'bar',
    categories: table.categories,
    series: table.series.map((s) => ({ name: s.name, values: s.values, unit: s.unit })),
    caption: lang === 'zh-Hans' ? `来源：${sourceTitle}` : `Source: ${sourceTitle}`,
  };
}
