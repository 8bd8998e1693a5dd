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

/** A figure with what follows it: "11,083,134 ops/sec", "14.261ms", "306.41 KB (gzip 134.52 KB)", "±1.06%". */
const FIGURE =
  /^[^\p{L}\p{N}$€£¥(+-]*([-+±]?)\s*([$€£¥]?)\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|[\p{L}µ]{1,6}(?:\/[\p{L}]{1,6})?)?\s*(?:\([^)]*\))?$/u;

/** The unit a cell's figure carries after it ("ops/sec", "ms", "KB"), lower-cased; '' for none. */
export function suffixUnit(cell: string): string {
  const m = FIGURE.exec(cell.trim());
  return m?.[5] && m[5] !== '%' ? m[5].toLowerCase() : '';
}

/** "1,234", "12%", "$3.5", "-4.2", "(7)", "14.261ms", "11,083,134 ops/sec" → number; anything else → null. */
export function parseNumber(cell: string): number | null {
  const s = cell.trim().replace(/^\((\d[\d,.]*)\)$/, '-$1');
  const m = FIGURE.exec(s);
  if (!m) return null;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * Number(m[3].replace(/,/g, '') + (m[4] ?? ''));
}

/** "Bunyan average: 377.434ms": a name and one figure, as benchmark output and settings list them. */
const NAMED_FIGURE = /^\s*([^:|]{1,60}?)\s*[:=]\s*(\S[^:|]{0,30})$/;

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
  return {
    heading,
    categories: rows.slice(0, 12).map((r) => r[0].replace(/[*_`]/g, '')),
    series: numericCols.slice(0, 4).map((c) => ({
      name: header[c].replace(/[*_`]/g, '') || `Series ${c}`,
      values: rows.slice(0, 12).map((r) => parseNumber(r[c])!),
      unit: unitOf(
        header[c],
        rows.map((r) => r[c]),
      ),
    })),
  };
}

/**
 * Every table of numbers in a text: Markdown pipe tables and comma-separated blocks (a header line
 * and two or more rows with the same number of cells). The nearest Markdown heading above names it.
 */
export function findNumberTables(text: string): NumberTable[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: NumberTable[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = /^#{1,6}\s+(.+)$/.exec(line.trim());
    if (h) heading = h[1].trim();
    if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const header = splitRow(line);
      const rows: string[][] = [];
      let j = i + 2;
      for (; j < lines.length && /^\s*\|.*\|\s*$/.test(lines[j]); j++) rows.push(splitRow(lines[j]));
      const t = toTable(heading, header, rows);
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
    if (line.includes(',') && !line.includes('|')) {
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
