/**
 * Tables used for layout rather than data (man pages written by groff, old sites, e-mail): their
 * rows are an indented term and its description, or a bullet and its text. As a GFM table they
 * read as `| | • | | text |`; written as what they lay out, they read as lists and paragraphs.
 */

import { boldTerm } from './indented-terms.js';

/** A cell that only marks a list item: a bullet, a dash, "1." or "(a)". */
const MARKER = /^(?:[•·◦▪▫‣∙○●■□–—*-]|\(?[0-9]{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\))$/i;

const isElement = (node: Node): node is Element => node.nodeType === 1;
const textOf = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

function rowsOf(table: Element): Element[][] {
  const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
  return rows.map((tr) => [...tr.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH'));
}

/**
 * A table is laid out, not data, when it has no header cells and either says so
 * (role="presentation") or has a column that is empty in every row (indentation), or its rows
 * hold one filled cell each, or the first filled cell of each row is a list marker.
 */
export function isLayoutTable(table: Element): boolean {
  const role = (table.getAttribute('role') ?? '').toLowerCase();
  if (role === 'presentation' || role === 'none') return true;
  if (table.querySelector('th, thead')) return false;
  const rows = rowsOf(table).filter((r) => r.length > 0);
  if (rows.length === 0) return false;
  const filled = rows.map((r) => r.filter((c) => textOf(c) || c.querySelector('img')));
  if (filled.every((cells) => cells.length <= 1)) return true;
  if (filled.every((cells) => cells.length >= 2 && MARKER.test(textOf(cells[0])))) return true;
  const width = Math.max(...rows.map((r) => r.length));
  for (let col = 0; col < width; col++) {
    if (rows.every((r) => !r[col] || (!textOf(r[col]) && !r[col].querySelector('img')))) return true;
  }
  return false;
}

/**
 * Each layout table (innermost first) replaced by what it lays out: rows whose first filled cell
 * is a list marker become one list, a row of a term and its text a paragraph for each, any other
 * row its cells' content in order.
 */
export function unwrapLayoutTables(root: ParentNode): void {
  const tables = [...root.querySelectorAll('table')].reverse();
  for (const table of tables) {
    if (!table.isConnected || !isLayoutTable(table)) continue;
    const doc = table.ownerDocument;
    const drawn = ruledTable(table);
    if (drawn) {
      table.replaceWith(drawn);
      continue;
    }
    const out = doc.createElement('div');
    let list: Element | null = null;
    for (const cells of rowsOf(table)) {
      const filled = cells.filter((c) => textOf(c) || c.querySelector('img, table, pre'));
      if (filled.length === 0) continue;
      const marker = filled.length >= 2 && MARKER.test(textOf(filled[0])) ? textOf(filled[0]) : null;
      if (marker) {
        const ordered = /[0-9]/.test(marker);
        if (!list || (list.tagName === 'OL') !== ordered) {
          list = doc.createElement(ordered ? 'ol' : 'ul');
          out.appendChild(list);
        }
        const li = doc.createElement('li');
        for (const cell of filled.slice(1)) li.append(...cell.childNodes);
        list.appendChild(li);
        continue;
      }
      list = null;
      // A row of a term and its description (a man page's `\NNN` and what it means): the term bold.
      if (filled.length === 2 && textOf(filled[1]).length > textOf(filled[0]).length) boldTerm(filled[0]);
      for (const cell of filled) {
        // A cell's inline content becomes a paragraph; its own blocks stay as they are.
        const blocks = [...cell.childNodes].some(
          (n) => isElement(n) && /^(P|DIV|UL|OL|PRE|TABLE|DL|H[1-6])$/.test(n.tagName),
        );
        if (blocks) out.append(...cell.childNodes);
        else {
          const p = doc.createElement('p');
          p.append(...cell.childNodes);
          out.appendChild(p);
        }
      }
    }
    table.replaceWith(...out.childNodes);
  }
}

/** A cell drawn as a rule under a header ("-----"). */
const RULE_CELL = /^[-=]{3,}$/;

/**
 * A table drawn in text and laid out in columns (groff's tab stops: "field  allowed values" over
 * "-----  --------------" over "minute  0-59"): its first row, over a row of rules, is its header,
 * and it is a data table. Undefined when the layout is not that.
 */
function ruledTable(table: Element): Element | undefined {
  const rows = rowsOf(table)
    .map((r) => r.filter((c) => textOf(c)))
    .filter((r) => r.length > 0);
  const [header, rule, ...body] = rows;
  const width = header?.length ?? 0;
  if (width < 2 || !rule || rule.length !== width || !rule.every((c) => RULE_CELL.test(textOf(c)))) return undefined;
  if (body.length === 0 || body.some((r) => r.length !== width)) return undefined;
  const doc = table.ownerDocument;
  const out = doc.createElement('table');
  const row = (cells: Element[], tag: 'th' | 'td') => {
    const tr = doc.createElement('tr');
    for (const c of cells) {
      const cell = doc.createElement(tag);
      cell.textContent = textOf(c);
      tr.appendChild(cell);
    }
    return tr;
  };
  const thead = doc.createElement('thead');
  thead.appendChild(row(header, 'th'));
  const tbody = doc.createElement('tbody');
  for (const r of body) tbody.appendChild(row(r, 'td'));
  out.append(thead, tbody);
  return out;
}
