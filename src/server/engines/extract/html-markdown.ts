import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { parseHTML } from 'linkedom';
import { cleanText } from './boilerplate.js';
import { unwrapLayoutTables } from './layout-tables.js';
import { gridTables } from './table-grid.js';
import { splitLabelLines } from './label-lines.js';

/**
 * Tables as GitHub-flavoured Markdown need a header row: a table without one (no <thead>, no <th>
 * in its first row) has its first row read as the header, which is how people write such tables.
 */
export function withHeaderRows(root: ParentNode): void {
  // A row or cell outside any table (`<svg><tr>`) would reach the GFM table rules with no table: its
  // content is kept, the element unwrapped.
  for (const part of [...root.querySelectorAll('tr, td, th, thead, tbody, tfoot')]) {
    if (!part.closest('table')) part.replaceWith(...part.childNodes);
  }
  for (const table of root.querySelectorAll('table')) {
    if (table.querySelector('thead')) continue;
    const first = table.querySelector('tr');
    if (!first || first.querySelector('th')) continue;
    for (const td of [...first.querySelectorAll('td')]) {
      const th = td.ownerDocument.createElement('th');
      th.innerHTML = td.innerHTML;
      td.replaceWith(th);
    }
  }
}

/** HTML that is all content (a converted document) straight to Markdown: headings kept, tables as GFM tables. */
export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.use(gfm);
  // A line break is written `\` at the line's end: the two spaces turndown writes are trailing
  // whitespace, trimmed below, and the break read as a space ("Type: boolean Default: false").
  // One in a heading, or ending its block (dropped below), breaks no line of text.
  turndown.addRule('lineBreak', {
    filter: 'br',
    replacement: (_content, node) => (node.closest('h1, h2, h3, h4, h5, h6') ? ' ' : '\\\n'),
  });
  turndown.addRule('preformatted', { filter: isBarePre, replacement: (_content, node) => fenced(node) });
  // A definition list's term in bold, a paragraph of its own: the unit layer keeps it with its description.
  turndown.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content) => {
      const term = content.trim();
      return term ? `\n\n${term.includes('**') ? term : `**${term}**`}\n\n` : '';
    },
  });
  // A disclosure's label (`<summary>Click to see the examples</summary>`) is a label: a paragraph of
  // its own in bold, as a caption is written, not words run on into what it sits in.
  turndown.addRule('disclosureLabel', {
    filter: 'summary',
    replacement: (content) => {
      const label = content.trim();
      return label ? `\n\n${label.includes('**') ? label : `**${label}**`}\n\n` : '';
    },
  });
  let source = html;
  const tables = /<(table|tr|td|th|thead|tbody|tfoot)[\s>/]/i.test(html);
  const breaks = /<br[\s>/]/i.test(html);
  if (tables || breaks) {
    const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
    if (tables) {
      unwrapLayoutTables(document.body);
      gridTables(document.body);
      withHeaderRows(document.body);
    }
    if (breaks) splitLabelLines(document.body);
    source = document.body.innerHTML;
  }
  return turndown
    .turndown(source)
    .replace(/[ \t]+$/gm, '')
    .replace(/\\\n(?=\n)|^\\\n/gm, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replace(/\\$/, '');
}

/**
 * A `<pre>` other than one `<code>` alone: turndown's fenced-code rule wants `<pre><code>` and reads
 * its first child only, so bare preformatted text went unfenced and a block of several code runs
 * (a DOCX code paragraph per line) lost all lines but the first.
 */
function isBarePre(node: HTMLElement): boolean {
  if (node.nodeName !== 'PRE') return false;
  const meaningful = [...node.childNodes].filter((n) => n.nodeType === 1 || (n.textContent ?? '').trim());
  return !(meaningful.length === 1 && meaningful[0].nodeName === 'CODE');
}

/** Preformatted text as a fenced block, verbatim, its fence longer than any backtick run inside. */
function fenced(pre: Element): string {
  const text = (pre.textContent ?? '').replace(/\n+$/, '');
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const classes = `${pre.getAttribute('class') ?? ''} ${pre.querySelector('code')?.getAttribute('class') ?? ''}`;
  const lang = /(?:^|\s)(?:language|lang)-(\S+)/.exec(classes)?.[1] ?? '';
  return `\n\n${fence}${lang}\n${text}\n${fence}\n\n`;
}

/** A converted document's Markdown (DOCX through mammoth) without its boilerplate or repeats. */
export const documentMarkdown = (html: string) => cleanText(htmlToMarkdown(html));
