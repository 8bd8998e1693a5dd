import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { visit } from 'unist-util-visit';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';

/** The code spans a reader of the answer sees. */
function codeSpans(markdown: string): string[] {
  const out: string[] = [];
  visit(fromMarkdown(markdown), 'inlineCode', (node) => {
    out.push(node.value);
  });
  return out;
}

/**
 * Headings quoted GNU-style (`like this') are plain text with backticks. Said as they are, in "what
 * they cover is closest to: …" two of them made a code span that no source holds (an altered quote).
 */
it('a heading with a backtick is said as text: the answer holds no code span the sources do not', () => {
  const passages = [
    { ref: 1, title: 'GDB', link: '', content: "## Using `configure'\n\nRun the script in the source directory." },
    { ref: 2, title: 'parse_date', link: '', content: "## The `TZ' variable\n\nIt names the time zone." },
  ];
  const a = extractiveAnswer({ query: 'How do I bake sourdough bread?', passages, history: [] });
  expect(a).toMatch(/^Your sources do not cover this question/);
  expect(codeSpans(a)).toEqual([]);
  expect(a).toContain("Using \\`configure'");
});

it('any headings, whatever backticks they hold, give a "not covered" answer without code spans', () => {
  const heading = fc.stringMatching(/^[A-Za-z`' ]{1,30}$/).filter((h) => h.trim().length > 0 && !h.startsWith(' '));
  fc.assert(
    fc.property(fc.array(heading, { minLength: 1, maxLength: 4 }), (headings) => {
      const passages = headings.map((h, i) => ({
        ref: i + 1,
        title: `Doc ${i + 1}`,
        link: '',
        content: `## ${h.trim()}\n\nPlain words about gardens.`,
      }));
      const a = extractiveAnswer({ query: 'What is the capital of Australia?', passages, history: [] });
      expect(codeSpans(a)).toEqual([]);
    }),
  );
});
