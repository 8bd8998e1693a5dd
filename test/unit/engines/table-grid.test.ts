import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { gridTables } from '../../../src/server/engines/extract/table-grid.js';

/** A table's rows as the text of their cells, after gridTables. */
function grid(html: string): string[][] {
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  gridTables(document.body);
  return [...document.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim()));
}

describe('tables with cells spanning rows and columns', () => {
  // pinyin-pro's README (bench/content's dev split) compares three packages in such a table: its
  // accuracy row was written short of cells, the separator broken, and 99.846% was no table cell.
  it('become plain grids, a spanning cell repeated where it spans, and GFM tables in Markdown', () => {
    const html =
      '<table><tr><th colspan="2">Item</th><th>a</th><th>b</th></tr>' +
      '<tr><td rowspan="2" colspan="2">Accuracy</td><td>94%</td><td rowspan="2">99.8%</td></tr>' +
      '<tr><td>91%</td></tr>' +
      '<tr><td rowspan="2">Speed</td><td>10k</td><td>74ms</td><td>7ms</td></tr>' +
      '<tr><td>100k</td><td>6287ms</td><td>45ms</td></tr></table>';
    expect(grid(html)).toEqual([
      ['Item', 'Item', 'a', 'b'],
      ['Accuracy', 'Accuracy', '94%', '99.8%'],
      ['Accuracy', 'Accuracy', '91%', '99.8%'],
      ['Speed', '10k', '74ms', '7ms'],
      ['Speed', '100k', '6287ms', '45ms'],
    ]);
    expect(htmlToMarkdown(html)).toMatch(
      /^\| Item +\| Item +\| a +\| b +\|\n\| -+ \| -+ \| -+ \| -+ \|\n\| Accuracy \| Accuracy \| 94% +\| 99\.8% +\|$/m,
    );
  });

  it('a hostile span is bounded by the table: rowspan by its rows, a huge grid left as it is', () => {
    expect(grid('<table><tr><td rowspan="100000">x</td><td>y</td></tr><tr><td>z</td></tr></table>')).toEqual([
      ['x', 'y'],
      ['x', 'z'],
    ]);
    // Rows short of cells, with no span (fast-check's counterexample): padded to the widest.
    expect(grid('<table><tr><td>a</td></tr><tr><td>b</td><td>c</td></tr></table>')).toEqual([
      ['a', ''],
      ['b', 'c'],
    ]);
    const wide = '<table><tr><td colspan="1000">x</td></tr>'.concat('<tr><td>y</td></tr>'.repeat(200), '</table>');
    expect(grid(wide)[0]).toEqual(['x']);
  });

  // Any table of spans: every row as wide as the widest, and each cell's text where it spans.
  it('every row of a generated table of spans has the same width, each cell found where it spans', () => {
    const cell = fc.record({ rows: fc.integer({ min: 1, max: 3 }), cols: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (table) => {
        let n = 0;
        const html = `<table>${table
          .map(
            (row) => `<tr>${row.map((c) => `<td rowspan="${c.rows}" colspan="${c.cols}">c${n++}</td>`).join('')}</tr>`,
          )
          .join('')}</table>`;
        const rows = grid(html);
        const width = Math.max(...rows.map((r) => r.length));
        expect(rows.every((r) => r.length === width)).toBe(true);
        for (let k = 0; k < n; k++) expect(rows.flat()).toContain(`c${k}`);
      }),
    );
  });
});

// pinyin-pro's README (bench/content's dev split, a web page): its comparison table's accuracy row,
// once a grid, was said for every column holding "pinyin"; the question names pinyin-pro's.
it('says the cell of the column the question names most fully', () => {
  const html = readFileSync(
    path.resolve(import.meta.dirname, '../../../bench/content/docs/pinyin-pro-readme.html'),
    'utf8',
  );
  const a = extractiveAnswer({
    query: 'pinyin-pro 的准确率是多少？',
    passages: [{ ref: 1, title: 'pinyin-pro', link: '', content: htmlToMarkdown(html) }],
    history: [],
  });
  expect(a).toContain('准确率 的 pinyin-pro 是 🤩 99.846%');
  expect(a).not.toContain('94.097%');
});
