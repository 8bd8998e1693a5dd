// What the decks-pages scan compares its outputs against: numeric tables, man-page options and code
// blocks, read from Markdown (a document's source, or the text facet extracted from it) with the
// same mdast parser the rest of the bench uses, independently of facet's own readers.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

const parse = (md) => fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** Every node in document order (of `type`, if given). */
function visit(node, type, fn) {
  if (typeof type === 'function') [fn, type] = [type, undefined];
  if (!type || node.type === type) fn(node);
  for (const child of node.children ?? []) visit(child, type, fn);
}

/**
 * A cell that is a quantity as written: "1,234", "11.7x slower", "~3 ms", "-5 %", "$20", "🚀 8.412ms"
 * (an emoji before it); never a date ("2024-04-26") or a list of versions ("18, 20, 22").
 */
const NUMBER_CELL =
  /^[\p{Extended_Pictographic}\uFE0F\s]*[~≈<>±+\-−]?\s*[$€£¥]?\s*\d[\d,.]*(?:\s*[%xX×])?(?:\s|[\p{L}]|$)/u;
const NOT_QUANTITY = /^\d{4}-\d{2}|^\d+(?:\.x)?(?:,\s*\d+)+$|^\d+\.x$/;
const isNumberCell = (c) => NUMBER_CELL.test(c) && !NOT_QUANTITY.test(c);
const BOX = /[\u2500-\u257f]/;

/**
 * GFM tables of numbers: two or more body rows, no box-drawing, and a column after the first where
 * most body cells are numbers (marks, units and thousands separators allowed: a merged cell or an
 * "n/a" does not make a table of benchmarks not one). Each with its heading.
 */
export function numericTables(md) {
  const out = [];
  let heading = '';
  visit(parse(md), (node) => {
    if (node.type === 'heading') heading = toString(node);
    if (node.type !== 'table') return;
    const rows = node.children.map((r) => r.children.map((c) => toString(c).trim()));
    const body = rows.slice(1);
    if (body.length < 2 || rows.flat().some((c) => BOX.test(c))) return;
    const width = Math.max(...rows.map((r) => r.length));
    for (let col = 1; col < width; col++)
      if (body.filter((r) => isNumberCell(r[col] ?? '')).length > body.length / 2) {
        out.push({ kind: 'table', heading, rows: body.length });
        return;
      }
  });
  return out;
}

const FIGURE_LINE = /^\s*([^:：]{1,60}?)\s*[:：]\s*[~≈]?\d(?:[\d,.]*\d)?\s*[\p{L}%]*\s*$/u;
const CODE_LINE = /[{}();=]|^\s*(?:\/\/|#|\$)/;

/**
 * Figures written as `name: value` lines (three or more) in a code block, as benchmark output is
 * ("Pino average: 114.801ms"): a table in all but syntax. Titled by the block's first other line,
 * else by the heading above it.
 */
export function figureBlocks(md) {
  const out = [];
  let heading = '';
  visit(parse(md), (node) => {
    if (node.type === 'heading') heading = toString(node);
    if (node.type !== 'code') return;
    const lines = node.value.split('\n').filter((l) => l.trim());
    const figures = lines.filter((l) => FIGURE_LINE.test(l));
    const others = lines.filter((l) => !FIGURE_LINE.test(l));
    if (figures.length >= 3 && others.length <= figures.length / 2 && !others.some((l) => CODE_LINE.test(l)))
      out.push({
        kind: 'figures',
        heading: lines.find((l) => !FIGURE_LINE.test(l))?.trim() ?? heading,
        rows: figures.length,
      });
  });
  return out;
}

/** Option flags named in a text: `-k`, `--keep`, `-tiffcompression` (not a dash between words). */
export const flagsIn = (text) => [...text.matchAll(/(?:^|[\s,([/"'`])(--?[A-Za-z0-9][\w-]*)/g)].map((m) => m[1]);

/**
 * A man page's options as its HTML-to-Markdown text gives them: a paragraph opening with a bold
 * flag (`**\-k --keep**`), then the paragraph describing it. Each with its flags and the first
 * words of its description.
 */
export function manOptions(md) {
  const paras = [];
  visit(parse(md), 'paragraph', (p) => {
    paras.push(p);
  });
  const out = [];
  for (const [i, p] of paras.entries()) {
    const first = p.children[0];
    const term = toString(p).trim();
    if (first?.type !== 'strong' || !/^--?[A-Za-z0-9]/.test(toString(first).trim())) continue;
    const description = paras[i + 1] ? toString(paras[i + 1]).trim() : '';
    out.push({ term, flags: flagsIn(term), description });
  }
  return out;
}

const words = (s) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Which of a mindmap's labels are about an option (they carry its flag, open with the first four
 * words of its description, or are four or more words of it) and which of those keep the flag.
 */
export function optionNodes(labels, options) {
  const nodes = [];
  for (const label of labels) {
    const flags = new Set(flagsIn(label));
    const lw = words(label).join(' ');
    const option =
      options.find((o) => o.flags.some((f) => flags.has(f))) ??
      options.find((o) => {
        const dw = words(o.description);
        return (
          (dw.length >= 3 && lw.includes(dw.slice(0, 4).join(' '))) ||
          (words(label).length >= 4 && dw.join(' ').includes(lw))
        );
      });
    if (option) nodes.push({ label, option: option.term, keepsFlag: option.flags.some((f) => flags.has(f)) });
  }
  return nodes;
}

/** Code blocks (fenced or indented) with whether each is fenced. */
export function codeBlocks(md) {
  const out = [];
  visit(parse(md), 'code', (n) => {
    const opening = md.slice(n.position.start.offset, n.position.start.offset + 3);
    out.push({ fenced: opening === '```' || opening === '~~~', value: n.value });
  });
  return out;
}

/** Whitespace-free text: a block kept whole has the same characters, however its lines were split. */
export const squeeze = (s) => s.replace(/\s+/g, '');
