import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';

/**
 * Tables for people at a terminal, in gh's manner: no box lines, a bold header row, columns two
 * spaces apart, fitted to the terminal's width by truncating the widest text columns (with …);
 * ids, statuses and numbers are never cut, as gh's are not — on a terminal too narrow even for
 * them the line is longer than the width rather than an id being cut. Widths are display widths
 * (CJK and emoji take two columns). Timestamps show as relative times ("3 minutes ago"; --json
 * keeps the exact time); statuses coloured. Piped output is tab-separated and exact (IO.table).
 */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;
const GOOD = new Set(['active', 'completed', 'succeeded', 'success', 'ok', 'ready', 'done', 'indexed', 'paid']);
const BAD = new Set(['failed', 'error', 'revoked', 'frozen', 'expired', 'canceled', 'cancelled', 'deleted']);
const WAITING = new Set(['pending', 'queued', 'running', 'processing', 'in_progress', 'indexing', 'cancelling']);
const GAP = '  ';
const MIN_WIDTH = 8;

export function relativeTime(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  const ago = s >= 0;
  const a = Math.abs(s);
  const [n, unit] =
    a < 45
      ? [0, '']
      : a < 3600
        ? [Math.round(a / 60), 'minute']
        : a < 86_400
          ? [Math.round(a / 3600), 'hour']
          : a < 30 * 86_400
            ? [Math.round(a / 86_400), 'day']
            : a < 365 * 86_400
              ? [Math.round(a / (30 * 86_400)), 'month']
              : [Math.round(a / (365 * 86_400)), 'year'];
  if (n === 0) return ago ? 'just now' : 'in a moment';
  const phrase = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return ago ? `${phrase} ago` : `in ${phrase}`;
}

export const isTimestamp = (text: string): boolean => ISO.test(text);

/** What a person reads in a cell: relative times instead of ISO timestamps. */
export function humanCell(text: string, now: number): string {
  return ISO.test(text) ? relativeTime(text, now) : text;
}

let widthOf: ((text: string) => number) | undefined;
/**
 * Columns a text takes on a terminal (CJK and emoji take two): string-width, loaded (synchronously,
 * an ES module through require) on the first table, so commands that print none never load it.
 */
export function displayWidth(text: string): number {
  widthOf ??= (createRequire(import.meta.url)('string-width') as typeof import('string-width')).default;
  return widthOf(text);
}

let graphemes: Intl.Segmenter | undefined;

/** The text cut to `width` columns with … at the end, whole characters only (an emoji is never split). */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const room = Math.max(0, width - 1);
  let out = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) {
    const w = displayWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return width >= 1 ? out + '…' : out;
}

function colourStatus(text: string, c: ChalkInstance): string {
  const key = text.trim().toLowerCase();
  if (GOOD.has(key)) return c.green(text);
  if (BAD.has(key)) return c.red(text);
  if (WAITING.has(key)) return c.yellow(text);
  return text;
}

/** Prefixed identifiers (key_…, task_…, usr_…) in a column whose header does not say ID. */
const PREFIXED_ID = /^[a-z]{2,12}_[a-z0-9]{6,}$/;
const NUMBER = /^[-+]?[$€£]?\d[\d,.]*(%|[kKMGT]B?|B)?$/;

/** The columns never cut: ids (by header or by content), names, statuses, and numbers. */
export function fixedColumns(headers: string[], rows: string[][]): Set<number> {
  const fixed = new Set<number>();
  headers.forEach((h, i) => {
    const values = rows.map((r) => r[i]).filter((v) => v !== '');
    const all = (re: RegExp) => values.length > 0 && values.every((v) => re.test(v));
    if (/^(ID|.* ID|NAME|USERNAME|STATUS|STATE)$/.test(h) || all(PREFIXED_ID) || all(NUMBER)) fixed.add(i);
  });
  return fixed;
}

/**
 * Widths that fit `total`: the widest column that may give way loses a column until the row fits,
 * first down to its header's width (or 8: "just now", "an hour…"), then down to one. Fixed columns
 * never give way, so a row of them alone may be wider than `total`.
 */
export function fitWidths(
  natural: number[],
  total: number,
  fixed: Set<number> = new Set(),
  headers: string[] = [],
  minWidths: Array<number | undefined> = [],
): number[] {
  const widths = [...natural];
  const room = () => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
  const soft = natural.map((n, i) => Math.min(n, minWidths[i] ?? Math.max(MIN_WIDTH, displayWidth(headers[i] ?? ''))));
  for (const floor of [soft, natural.map(() => 1)]) {
    while (room() > total) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++)
        if (!fixed.has(i) && widths[i] > floor[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
      if (widest < 0) break;
      widths[widest]--;
    }
  }
  return widths;
}

export interface TableLayout {
  width: number;
  c: ChalkInstance;
  statusColumns: Set<number>;
  /**
   * Per column: 1 is kept at any width; higher numbers are left out first (the rightmost of equals
   * first) when the row would otherwise cut columns below their floor. Without it, no column is left out.
   */
  priorities?: number[];
  /** Columns never cut beyond the ones found by fixedColumns (a combined "type id" target). */
  noCut?: Set<number>;
  /** Per column: the width a cut text keeps before lower columns are left out (default 8 or the header's). */
  minWidths?: Array<number | undefined>;
  /** --wide: every column at its natural width, none left out, none cut. */
  wide?: boolean;
  /** Told the headers of the columns left out, for a line on stderr. */
  onHidden?: (headers: string[]) => void;
}

/**
 * A table for a terminal. Columns that may give way shrink to their floor; if the row is still too
 * wide, the lowest-priority column is left out and the rest fitted again, so at 80 columns a table
 * shows fewer columns whole rather than every column cut to "boo…".
 */
export function renderTable(headers: string[], rows: string[][], options: TableLayout): string {
  const natural = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i]))));
  const fixed = fixedColumns(headers, rows);
  for (const i of options.noCut ?? []) fixed.add(i);
  let shown = headers.map((_, i) => i);
  const hidden: number[] = [];
  if (!options.wide && options.priorities) {
    const floorOf = (i: number) =>
      Math.min(natural[i], options.minWidths?.[i] ?? Math.max(MIN_WIDTH, displayWidth(headers[i])));
    const fits = () =>
      shown.reduce((sum, i) => sum + (fixed.has(i) ? natural[i] : floorOf(i)), 0) + GAP.length * (shown.length - 1) <=
      options.width;
    while (!fits()) {
      let drop = -1;
      for (const i of shown)
        if (
          (options.priorities[i] ?? 2) > 1 &&
          (drop < 0 || (options.priorities[i] ?? 2) >= (options.priorities[drop] ?? 2))
        )
          drop = i;
      if (drop < 0) break;
      shown = shown.filter((i) => i !== drop);
      hidden.push(drop);
    }
    if (hidden.length) options.onHidden?.(headers.filter((_, i) => hidden.includes(i)));
  }
  const pick = <T>(values: T[]) => shown.map((i) => values[i]);
  const shownFixed = new Set(shown.flatMap((col, j) => (fixed.has(col) ? [j] : [])));
  const shownHeaders = pick(headers);
  const shownNatural = pick(natural);
  const widths = options.wide
    ? shownNatural
    : fitWidths(
        shownNatural,
        options.width,
        shownFixed,
        shownHeaders,
        options.minWidths ? pick(options.minWidths) : undefined,
      );
  const status = new Set(shown.flatMap((col, j) => (options.statusColumns.has(col) ? [j] : [])));
  // Cut and padded first, coloured after: a cut cell keeps its colour, and padding never counts escapes.
  const line = (cells: string[], style: (text: string, i: number) => string) =>
    cells
      .map((cellText, i) => {
        const cut = truncate(cellText, widths[i]);
        const padded = i === cells.length - 1 ? cut : cut + ' '.repeat(Math.max(0, widths[i] - displayWidth(cut)));
        return style(padded, i);
      })
      .join(GAP)
      .trimEnd();
  const out = [line(shownHeaders, (t) => options.c.bold(t))];
  for (const r of rows) out.push(line(pick(r), (t, i) => (status.has(i) ? colourStatus(t, options.c) : t)));
  return out.join('\n') + '\n';
}
