import type { ChalkInstance } from 'chalk';

/**
 * Tables for people at a terminal, in gh's manner: no box lines, a bold header row, columns two
 * spaces apart, fitted to the terminal's width by truncating the widest columns (with …), never
 * wrapping; timestamps as relative times ("3 minutes ago"; --json keeps the exact time); statuses
 * coloured. Piped output is tab-separated and exact (IO.table), never this.
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
    a < 45 ? [0, ''] : a < 3600 ? [Math.round(a / 60), 'minute'] : a < 86_400 ? [Math.round(a / 3600), 'hour'] : a < 30 * 86_400 ? [Math.round(a / 86_400), 'day'] : a < 365 * 86_400 ? [Math.round(a / (30 * 86_400)), 'month'] : [Math.round(a / (365 * 86_400)), 'year'];
  if (n === 0) return ago ? 'just now' : 'in a moment';
  const phrase = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return ago ? `${phrase} ago` : `in ${phrase}`;
}

/** What a person reads in a cell: relative times instead of ISO timestamps. */
export function humanCell(text: string, now: number): string {
  return ISO.test(text) ? relativeTime(text, now) : text;
}

function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 1 ? chars.slice(0, width).join('') : chars.slice(0, width - 1).join('') + '…';
}

function colourStatus(text: string, c: ChalkInstance): string {
  const key = text.trim().toLowerCase();
  if (GOOD.has(key)) return c.green(text);
  if (BAD.has(key)) return c.red(text);
  if (WAITING.has(key)) return c.yellow(text);
  return text;
}

/**
 * Widths that fit `total`: the widest column gives up a character until the row fits, first down to
 * its header's width (or 8: "just now", "an hour…"), ids last — they are what people copy from a
 * table — and only then, on a very narrow terminal, down to one character. Never a wrapped line.
 */
export function fitWidths(natural: number[], total: number, keep: Set<number> = new Set(), headers: string[] = []): number[] {
  const widths = [...natural];
  const room = () => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
  const soft = natural.map((n, i) => Math.min(n, Math.max(MIN_WIDTH, headers[i]?.length ?? 0)));
  const none = new Set<number>();
  const passes: Array<[number[], Set<number>]> = [
    [soft, keep],
    [soft, none],
    [natural.map(() => 1), none],
  ];
  for (const [floor, spared] of passes) {
    while (room() > total) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) if (!spared.has(i) && widths[i] > floor[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
      if (widest < 0) break;
      widths[widest]--;
    }
  }
  return widths;
}

export function renderTable(headers: string[], rows: string[][], options: { width: number; c: ChalkInstance; statusColumns: Set<number> }): string {
  const length = (s: string) => [...s].length;
  const natural = headers.map((h, i) => Math.max(length(h), ...rows.map((r) => length(r[i]))));
  const ids = new Set(headers.flatMap((h, i) => (/^(ID|.* ID)$/.test(h) ? [i] : [])));
  const widths = fitWidths(natural, options.width, ids, headers);
  const line = (cells: string[], style: (text: string, i: number) => string) =>
    cells
      .map((cellText, i) => {
        const cut = truncate(cellText, widths[i]);
        const padded = i === cells.length - 1 ? cut : cut.padEnd(widths[i] + (cut.length - length(cut)));
        return style(padded, i);
      })
      .join(GAP)
      .trimEnd();
  const out = [line(headers, (t) => options.c.bold(t))];
  for (const r of rows) out.push(line(r, (t, i) => (options.statusColumns.has(i) ? colourStatus(t, options.c) : t)));
  return out.join('\n') + '\n';
}
