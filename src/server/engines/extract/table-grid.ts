/**
 * HTML tables whose cells span rows or columns (rowspan, colspan) laid out as plain grids: GFM
 * tables have no spans, and turndown's GFM rules wrote such a table with rows short of cells and a
 * broken separator line, so it read as no table at all. A spanning cell is repeated in each row and
 * column it covers, as a reader of that row sees it.
 */

/** Most cells a table is laid out into; a larger grid (a hostile colspan) is left as it is. */
const MAX_GRID_CELLS = 100_000;
/** The largest span HTML honours (the HTML standard clamps colspan to 1000, rowspan to 65534). */
const MAX_COLSPAN = 1000;

const cellsOf = (tr: Element) => [...tr.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
const spanOf = (cell: Element, name: 'rowspan' | 'colspan') => {
  const n = Number.parseInt(cell.getAttribute(name) ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? n : 1;
};

export function gridTables(root: ParentNode): void {
  for (const table of root.querySelectorAll('table')) {
    const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
    const spanned = rows.some((tr) => cellsOf(tr).some((c) => spanOf(c, 'rowspan') > 1 || spanOf(c, 'colspan') > 1));
    // A table whose rows are short of cells is padded to the widest, as a spanned one is.
    const ragged = new Set(rows.map((tr) => cellsOf(tr).length)).size > 1;
    if (!spanned && !ragged) continue;
    const grid: Element[][] = rows.map(() => []);
    let cells = 0;
    rows.forEach((tr, r) => {
      let col = 0;
      for (const cell of cellsOf(tr)) {
        while (grid[r][col]) col++;
        const down = Math.min(spanOf(cell, 'rowspan'), rows.length - r);
        const across = Math.min(spanOf(cell, 'colspan'), MAX_COLSPAN);
        cells += down * across;
        if (cells > MAX_GRID_CELLS) return;
        for (let i = 0; i < down; i++) for (let j = 0; j < across; j++) grid[r + i][col + j] = cell;
        col += across;
      }
    });
    const width = Math.max(...grid.map((g) => g.length));
    if (cells > MAX_GRID_CELLS || width * rows.length > MAX_GRID_CELLS) continue;
    rows.forEach((tr, r) => {
      const row: Element[] = [];
      for (let c = 0; c < width; c++) {
        const from = grid[r][c];
        const cell = from ? (from.cloneNode(true) as Element) : tr.ownerDocument.createElement('td');
        cell.removeAttribute('rowspan');
        cell.removeAttribute('colspan');
        row.push(cell);
      }
      tr.replaceChildren(...row);
    });
  }
}
