import { markdownBlocks } from '../../text/markdown.js';
import { inlineMarkdown } from '../../text/markdown-tree.js';
import { namedFigures } from '../slides/tables.js';
import { clip, type PagePassage } from './text.js';
import { PLAN_LIMITS, type PageTable } from './plan.js';

/**
 * What a section shows besides its paragraphs, from the document's own structure: a list the
 * answer gave as a list stays a list (not sentences run into a paragraph), and a table of the
 * section's sources is shown as the table it is (a sentence "the following table shows…" then has
 * its table).
 */

/** The top-level items of the answer's lists, when it has at least two; citations escaped by Markdown are unescaped. */
export function answerItems(answer: string): string[] {
  const items = markdownBlocks(answer)
    .filter((b) => b.kind === 'listItem' && b.depth === 1)
    .map((b) => b.markdown.replace(/\\\[(\d+)\]/g, '[$1]').trim())
    .filter((m) => /[\p{L}\p{N}]/u.test(m.replace(/\[\d+\]/g, '')));
  return items.length >= 2 ? items.slice(0, PLAN_LIMITS.itemsPerSection).map((m) => clip(m, 240)) : [];
}

const asText = (value: string) => inlineMarkdown([{ type: 'text', value }]);

/**
 * The first real table of the passages (a header of at least two named columns and a row of at least
 * two filled cells; not a layout table of badges or images), bounded to a few rows and columns. A
 * code block of `name: value` figures (benchmark output) is such a table too: name | value.
 */
export function sectionTable(passages: PagePassage[]): PageTable | undefined {
  for (const p of passages)
    for (const b of markdownBlocks(p.content)) {
      const figures = b.kind === 'code' ? namedFigures(b.value) : null;
      // Cells are inline Markdown: a name's `*` or `_` is a character, escaped as one.
      if (figures)
        return {
          header: [asText(figures.caption || 'Name'), 'Value'],
          rows: figures.rows.slice(0, PLAN_LIMITS.tableRows).map(([n, v]) => [asText(n), asText(v)]),
          ref: p.ref,
        };
      if (b.kind !== 'table') continue;
      const named = b.header.filter((h) => /[\p{L}\p{N}]/u.test(h.text)).length;
      const filled = b.rows.some((r) => r.filter((c) => /[\p{L}\p{N}]/u.test(c?.text ?? '')).length >= 2);
      if (named < 2 || !filled) continue;
      const columns = Math.min(b.header.length, PLAN_LIMITS.tableColumns);
      return {
        header: b.header.slice(0, columns).map((h) => h.markdown),
        rows: b.rows.slice(0, PLAN_LIMITS.tableRows).map((r) => r.slice(0, columns).map((c) => c?.markdown ?? '')),
        ref: p.ref,
      };
    }
  return undefined;
}
