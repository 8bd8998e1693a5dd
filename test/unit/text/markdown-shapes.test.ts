import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/server/engines/retrieval/chunker.js';
import { DocumentRefused } from '../../../src/server/engines/extract/limits.js';
import { checkMarkdownShape } from '../../../src/server/engines/extract/markdown-shape.js';
import { markdownPieces } from '../../../src/server/text/markdown-pieces.js';

/**
 * Issue 46: a text whose shape makes the Markdown parser slow (deep lists and quotes, long runs of
 * emphasis and brackets, long lines, long nested lists) is either refused by the shape check,
 * naming its bound, or chunked with every word kept.
 */
const shape = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((n) => `${'- '.repeat(n)}deep`),
  fc.integer({ min: 1, max: 40 }).map((n) => `${'>'.repeat(n)} deep`),
  fc.integer({ min: 1, max: 20 }).map((n) => `${'> - '.repeat(n)}deep`),
  fc.integer({ min: 1, max: 40 }).map((n) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- deep`).join('\n')),
  fc.integer({ min: 1, max: 1100 }).map((n) => `${'*'.repeat(n)}deep${'*'.repeat(n)}`),
  fc.integer({ min: 1, max: 1500 }).map((n) => `${'['.repeat(n)}deep${']('.repeat(n)}`),
  fc.integer({ min: 1, max: 1500 }).map((n) => `${'_deep '.repeat(n)}`),
  fc.integer({ min: 1, max: 300 }).map((n) => Array.from({ length: n }, () => '- deep\n  - deep').join('\n')),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'deep'.repeat(n)} deep`),
);

describe('pathological Markdown shapes', () => {
  it('are refused by the bound they cross, or chunked with every word kept (property)', () => {
    fc.assert(
      fc.property(fc.array(shape, { minLength: 1, maxLength: 3 }), (parts) => {
        const text = parts.join('\n\n');
        try {
          checkMarkdownShape(text);
        } catch (err) {
          expect(err).toBeInstanceOf(DocumentRefused);
          const refused = err as DocumentRefused;
          expect(refused.status).toBe(413);
          expect(['markdownMaxDepth', 'markdownMaxInlineMarks']).toContain(refused.limit);
          expect(refused.message).toContain(`limit ${refused.limit} =`);
          return;
        }
        const words = (s: string) => s.match(/deep/g)?.length ?? 0;
        expect(
          words(
            chunkText(text)
              .map((c) => c.content)
              .join('\n'),
          ),
        ).toBe(words(text));
      }),
      { numRuns: 12 },
    );
  });

  it('names the bound: 10 KB of `>` and a 20 KB nested list are refused at the first line', () => {
    expect(() => checkMarkdownShape(`${'>'.repeat(10_000)} x`)).toThrow(/markdownMaxDepth/);
    expect(() => checkMarkdownShape(`${'- '.repeat(10_000)}x`)).toThrow(/line 1 nests lists and block quotes/);
    expect(() => checkMarkdownShape(`${'*'.repeat(3000)}x${'*'.repeat(3000)}`)).toThrow(/markdownMaxInlineMarks/);
  });

  it('ordinary text passes: code fences hold anything, blank lines end a paragraph, a long flat list is fine', () => {
    const fenced = `\`\`\`\n${'- '.repeat(100)}\n${'*'.repeat(5000)}\n\`\`\`\n`;
    const paragraphs = `${'snake_case '.repeat(900)}\n\n${'snake_case '.repeat(900)}`;
    const list = Array.from({ length: 5000 }, (_, i) => `- item ${i} with [a link](https://example.com/${i})`).join(
      '\n',
    );
    for (const text of [fenced, paragraphs, list]) expect(() => checkMarkdownShape(text)).not.toThrow();
  });

  it('a long list is parsed as consecutive lists of at most 100 item lines, every item kept', () => {
    const list = Array.from({ length: 450 }, (_, i) => `- item${i}\n  - sub${i}`).join('\n');
    const pieces = [...markdownPieces(list)];
    for (const piece of pieces) expect(piece.match(/^ *- /gm)!.length).toBeLessThanOrEqual(101);
    expect(pieces.join('\n')).toBe(list);
    const text = chunkText(list)
      .map((c) => c.content)
      .join('\n');
    for (const i of [0, 99, 100, 101, 449]) expect(text).toContain(`sub${i}`);
  });
});
