import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { fitWidths, humanCell, relativeTime, renderTable } from '../../src/cli/io/tty-table.js';

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
    const out = renderTable(['ID', 'NAME'], [['a1', 'alpha'], ['b22', 'b']], { width: 80, c: plain, statusColumns: new Set() });
    expect(out).toBe('ID   NAME\na1   alpha\nb22  b\n');
  });

  it('fits the width by truncating the widest non-id columns, never wrapping', () => {
    const long = 'x'.repeat(100);
    const out = renderTable(['ID', 'TITLE', 'STATUS'], [['task_0123456789', long, 'failed']], { width: 40, c: plain, statusColumns: new Set([2]) });
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
