import type { Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import { escapeControls, forPipe, forTerminal, markedChalk } from './terminal-text.js';
import { humanCell, isTimestamp, renderTable } from './tty-table.js';
import { page } from './pager.js';
import { cell } from './cell.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /**
   * On a narrow terminal: 1 is always shown; 2 (the default), then 3, are left out first, with a
   * line on stderr naming them (`--wide` or `--json` shows them). Piped output has every column.
   */
  priority?: 1 | 2 | 3;
  /** Never cut on a terminal (ids, names and statuses never are, found by header and content). */
  whole?: boolean;
  /** The width a cut text keeps before lower-priority columns are left out. */
  min?: number;
  /** Left out on a terminal when every row holds the same value: the caller's own user id on their own keys. */
  hideWhenSame?: boolean;
}

/** A column of times (some may be blank: "never used"), shown as "3 minutes ago". */
const timestamps = (values: string[]) => values.some(isTimestamp) && values.every((v) => v === '' || isTimestamp(v));

export interface IOOptions {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  json: boolean;
  quiet: boolean;
  color: boolean;
  /** --json FIELDS and --jq EXPR (io/json-shape.ts); either one implies json. */
  shape?: import('./json-shape.js').JsonShape;
  /** --wide: tables show every column, none cut. */
  wide?: boolean;
  /** On a terminal: output longer than the screen goes through this pager (io/pager.ts). */
  pager?: { command: string; env: NodeJS.ProcessEnv };
}

/**
 * Everything a command writes goes through here. Data goes to stdout (JSON with --json, a table on
 * a TTY, tab-separated lines when piped); messages, hints and progress go to stderr. What reaches a
 * terminal has its control characters shown escaped (terminal-text.ts): messages always, stdout on a
 * TTY; piped stdout is exact.
 */
export class IO {
  readonly c: ChalkInstance;
  readonly errC: ChalkInstance;

  constructor(readonly options: IOOptions) {
    this.c = markedChalk(new Chalk({ level: options.color && options.stdout.isTTY ? 1 : 0 }));
    this.errC = markedChalk(new Chalk({ level: options.color && options.stderr.isTTY ? 1 : 0 }));
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.options.stdout.isTTY);
  }

  get stderrIsTTY(): boolean {
    return Boolean(this.options.stderr.isTTY);
  }

  /** --json FIELDS or --jq: JSON output is reshaped before it is printed. */
  get shaped(): boolean {
    return Boolean(this.options.shape?.fields || this.options.shape?.jq);
  }

  get json(): boolean {
    return this.options.json || this.shaped;
  }

  write(text: string): void {
    this.options.stdout.write(this.stdoutIsTTY ? forTerminal(text) : forPipe(text));
  }

  /** Whole output (a table, a record, a JSON document): through the pager when it is longer than the screen. */
  private writeLong(text: string): void {
    const pager = this.options.pager;
    const rows = (this.options.stdout as { rows?: number }).rows || 24;
    if (pager && this.stdoutIsTTY && text.split('\n').length > rows - 1) {
      if (page(pager.command, forTerminal(text), pager.env)) return;
    }
    this.write(text);
  }

  private message(text: string): void {
    this.options.stderr.write(forTerminal(text));
  }

  /** JSON output written through jq runs in order, after the writes before it; flush() awaits it. */
  private pending: Promise<void> = Promise.resolve();

  /** Stable machine output: the response data, two-space indented, one trailing newline. */
  printJson(data: unknown, records?: unknown[]): void {
    this.emitJson(data, (v) => JSON.stringify(v ?? null, null, 2) + '\n', records);
  }

  /** A body as the server sent it (`facet api`): --jq filters the whole of it, never its records. */
  printBody(data: unknown): void {
    this.emitJson(data, (v) => JSON.stringify(v ?? null, null, 2) + '\n', undefined, false, true);
  }

  /** One record of an NDJSON stream (a line each), shaped like printJson's output. */
  printJsonLine(data: unknown): void {
    this.emitJson(data, (v) => JSON.stringify(v ?? null) + '\n', undefined, true);
  }

  private emitJson(
    data: unknown,
    format: (v: unknown) => string,
    records?: unknown[],
    line = false,
    asSent = false,
  ): void {
    const shape = this.options.shape;
    if (!shape?.fields && !shape?.jq) {
      this.writeLong(format(data));
      if (this.options.json && this.stdoutIsTTY && !this.options.quiet)
        this.pending = this.pending.then(async () =>
          this.listFields(records ?? (await import('./json-shape.js')).recordsOf(data, ['\0']).records),
        );
      return;
    }
    const run = async () => {
      const { selectFields, runJq, recordsOf, pagedRecords } = await import('./json-shape.js');
      // A field list selects from the records of a list, and jq filters a paged list's records;
      // how much of the whole they are, a person sees on stderr.
      const found = shape.fields
        ? records
          ? { records }
          : recordsOf(data, shape.fields)
        : asSent || line
          ? undefined
          : records
            ? { records }
            : pagedRecords(data);
      const more = found && 'more' in found ? found.more : undefined;
      if (more && this.stderrIsTTY)
        this.info(
          `${more.page !== undefined ? `page ${more.page}, ` : ''}${more.shown}${more.total !== undefined ? ` of ${more.total}` : ''} (--limit N, --cursor C or --all for more)`,
        );
      const selected = shape.fields ? selectFields(found!.records, shape.fields) : found ? found.records : data;
      this.writeLong(shape.jq ? await runJq(selected, shape.jq, line) : format(selected));
    };
    this.pending = this.pending.then(run);
  }

  /** Bare --json on a terminal: the fields `--json a,b` could keep, on stderr, as gh lists them. */
  private listFields(data: unknown): void {
    const items: unknown[] = Array.isArray(data) ? data : [data];
    const keys = new Set(
      items.flatMap((r) => (r !== null && typeof r === 'object' && !Array.isArray(r) ? Object.keys(r) : [])),
    );
    if (keys.size > 0) this.info(this.errC.dim(`fields for --json a,b: ${[...keys].sort().join(', ')}`));
  }

  /** Waits for JSON still going through jq; its errors surface here. */
  flush(): Promise<void> {
    return this.pending;
  }

  /** Data for people and scripts: JSON when asked, else the human rendering. */
  print(data: unknown, human: () => void, records?: unknown[]): void {
    if (this.json) this.printJson(data, records);
    else human();
  }

  table<T>(rows: T[], columns: Array<Column<T>>, options: { empty?: string } = {}): void {
    if (rows.length === 0) {
      if (options.empty) this.info(options.empty);
      return;
    }
    if (!this.stdoutIsTTY) {
      for (const row of rows) this.write(columns.map((c) => cell(c.value(row))).join('\t') + '\n');
      return;
    }
    const now = Date.now();
    const wide = Boolean(this.options.wide);
    const same = (c: Column<T>) => new Set(rows.map((row) => cell(c.value(row)))).size === 1;
    if (!wide) columns = columns.filter((c) => !(c.hideWhenSame && same(c)));
    const headers = columns.map((c) => c.header);
    const cells = rows.map((row) =>
      columns.map((c) => escapeControls(humanCell(cell(c.value(row)), now), { lines: false })),
    );
    const statusColumns = new Set(headers.flatMap((h, i) => (/^(STATUS|STATE)$/.test(h) ? [i] : [])));
    const width = (this.options.stdout as { columns?: number }).columns || 80;
    let hidden: string[] = [];
    const text = renderTable(headers, cells, {
      width,
      c: this.c,
      statusColumns,
      wide,
      priorities: columns.map((c) => c.priority ?? 2),
      // Times read as "17 minutes ago": cut to "17 minu…" they say nothing.
      noCut: new Set(columns.flatMap((c, i) => (c.whole || timestamps(rows.map((r) => cell(c.value(r)))) ? [i] : []))),
      minWidths: columns.map((c) => c.min),
      onHidden: (h) => (hidden = h),
    });
    this.writeLong(text);
    if (hidden.length)
      this.info(
        this.errC.dim(
          `${hidden.length} column${hidden.length > 1 ? 's' : ''} left out at this width (${hidden.join(', ')}): --wide or --json shows ${hidden.length > 1 ? 'them' : 'it'}`,
        ),
      );
  }

  /** Key/value lines for one record; on a terminal a value's further lines are indented under its first. */
  fields(pairs: Array<[string, unknown]>): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    const indent = '\n' + ' '.repeat(width + 2);
    const value = (v: unknown) => (this.stdoutIsTTY ? escapeControls(cell(v)).replace(/\n/g, indent) : cell(v));
    this.writeLong(pairs.map(([k, v]) => `${this.c.dim(k.padEnd(width))}  ${value(v)}\n`).join(''));
  }

  info(message: string): void {
    if (!this.options.quiet) this.message(message + '\n');
  }

  success(message: string): void {
    if (!this.options.quiet) this.message(this.errC.green('✓ ') + message + '\n');
  }

  warn(message: string): void {
    this.message(this.errC.yellow('warning: ') + message + '\n');
  }

  error(message: string): void {
    this.message(this.errC.red('error: ') + message + '\n');
  }
}
