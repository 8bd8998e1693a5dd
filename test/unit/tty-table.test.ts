import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  fitWidths,
  fixedColumns,
  humanCell,
  relativeTime,
  renderTable,
  truncate,
} from '../../src/cli/io/tty-table.js';

const plain = new Chalk({ level: 0 });
const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('relative times', () => {
  it('past and future, in words', () => {
    expect(relativeTime('2026-01-10T11:59:50Z', NOW)).toBe('just now');
    expect(relativeTime('2026-01-10T11:57:00Z', NOW)).toBe('3 minutes ago');
    expect(relativeTime('2026-01-10T11:00:00Z', NOW)).toBe('1 hour ago');
    expect(relativeTime('2026-01-13T12:00:00Z', NOW)).toBe('in 3 days');
    expect(humanCell('2026-01-08T12:00:00.000Z', NOW)).toBe('2 days ago');
    expect(humanCell('not a time', NOW)).toBe('not a time');
  });
});

describe('tables on a terminal', () => {
  it('no box lines, columns two spaces apart', () => {
    const out = renderTable(
      ['ID', 'NAME'],
      [
        ['a1', 'alpha'],
        ['b22', 'b'],
      ],
      { width: 80, c: plain, statusColumns: new Set() },
    );
    expect(out).toBe('ID   NAME\na1   alpha\nb22  b\n');
  });

  it('fits the width by truncating the widest non-id columns, never wrapping', () => {
    const long = 'x'.repeat(100);
    const out = renderTable(['ID', 'TITLE', 'STATUS'], [['task_0123456789', long, 'failed']], {
      width: 40,
      c: plain,
      statusColumns: new Set([2]),
    });
    for (const line of out.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
    expect(out).toContain('task_0123456789');
    expect(out).toContain('…');
    expect(fitWidths([10, 10], 5).reduce((a, b) => a + b) + 2).toBe(5);
  });

  it('colours statuses', () => {
    const c = new Chalk({ level: 1 });
    const out = renderTable(['STATUS'], [['failed'], ['active']], { width: 80, c, statusColumns: new Set([0]) });
    expect(out).toContain(c.red('failed'));
    expect(out).toContain(c.green('active'));
  });
});

describe('widths on a terminal', () => {
  const widthOf = (line: string) => displayWidth(line);

  it('measure CJK and emoji as two columns, so their rows align', () => {
    const out = renderTable(
      ['NAME', 'NOTE'],
      [
        ['日本語の文書', 'a'],
        ['plain', 'b'],
        ['😀🎉', 'c'],
      ],
      { width: 80, c: plain, statusColumns: new Set() },
    );
    const lines = out.trimEnd().split('\n');
    const noteAt = lines.map((l) => widthOf(l.slice(0, l.search(/[abc]$|NOTE$/))));
    expect(new Set(noteAt).size).toBe(1);
    expect(lines[1]).toBe('日本語の文書  a');
  });

  it('cut a wide text by columns, never splitting a character', () => {
    expect(truncate('日本語の文書', 7)).toBe('日本語…');
    expect(widthOf(truncate('日本語の文書', 7))).toBe(7);
    expect(truncate('👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦', 4)).toBe('👩‍👩‍👧‍👦…');
    expect(truncate('short', 10)).toBe('short');
  });

  it('never cut ids and statuses, even past the width; text gives way', () => {
    const id = 'task_lsk8o9k6vc9mj0ab';
    const rows = [
      [
        id,
        'a title that is far too long to fit next to everything else in the row',
        'succeeded',
        'usr_0123456789abcdef',
        '1,024',
      ],
    ];
    const out = renderTable(['ID', 'TITLE', 'STATUS', 'USER', 'SIZE'], rows, {
      width: 80,
      c: plain,
      statusColumns: new Set([2]),
    });
    for (const text of [id, 'succeeded', 'usr_0123456789abcdef', '1,024']) expect(out).toContain(text);
    expect(out).toMatch(/a title[^…]*…/);
    for (const line of out.trimEnd().split('\n')) expect(widthOf(line)).toBeLessThanOrEqual(80);
    const narrow = renderTable(['ID', 'TITLE', 'STATUS'], [[id, 'title', 'succeeded']], {
      width: 20,
      c: plain,
      statusColumns: new Set([2]),
    });
    expect(narrow).toContain(id);
    expect(narrow).toContain('succeeded');
  });

  it('colour a status after padding it', () => {
    const c = new Chalk({ level: 1 });
    const out = renderTable(
      ['STATUS', 'NAME'],
      [
        ['failed', 'x'.repeat(200)],
        ['active', 'y'],
      ],
      { width: 40, c, statusColumns: new Set([0]) },
    );
    expect(out).toContain(c.red('failed'));
  });

  it('finds id and number columns by their content, and names by their header', () => {
    expect(fixedColumns(['USER', 'NAME', 'SIZE', 'STATE'], [['usr_abcdef123456', 'alpha', '12 KB', 'x']])).toEqual(
      new Set([0, 1, 3]),
    );
    expect(
      fixedColumns(
        ['USER', 'NAME', 'SIZE'],
        [
          ['usr_abcdef123456', 'alpha', '12KB'],
          ['', 'beta', '3'],
        ],
      ),
    ).toEqual(new Set([0, 1, 2]));
  });
});
