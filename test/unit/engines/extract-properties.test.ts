import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeHtml, type ShapeOptions } from '../../../src/server/engines/extract/shape-html.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { DocumentRefused } from '../../../src/server/engines/extract/limits.js';

/**
 * Issue 32: no page a caller points extraction at makes a server error. Whatever the markup —
 * fragments, bare text, nothing, unclosed and misnested tags, control characters, entities, deep
 * nesting — shaping answers a page or one of its stated refusals, and the LiveDoc extraction a
 * Markdown text or a DocumentRefused (a 4xx): never another exception.
 */
const TAGS = [
  'div',
  'p',
  'b',
  'i',
  'span',
  'a',
  'table',
  'tr',
  'td',
  'ul',
  'li',
  'h1',
  'h2',
  'pre',
  'code',
  'br',
  'img',
  'html',
  'body',
  'head',
  'title',
  'script',
  'style',
  'main',
  'article',
  'nav',
  'svg',
  'template',
  'iframe',
  'meta',
];
const ATTRS = [
  'href="/x"',
  'href="javascript:alert(1)"',
  'src="data:,"',
  'class="a b"',
  'id=""',
  'content="0;url=http://127.0.0.1/"',
  'href="http://[::1"',
  'alt="\u0000"',
];

const text = fc.stringMatching(/^[\s\S]{0,30}$/);
const open = fc
  .tuple(fc.constantFrom(...TAGS), fc.option(fc.constantFrom(...ATTRS)))
  .map(([t, a]) => `<${t}${a ? ` ${a}` : ''}>`);
const close = fc.constantFrom(...TAGS).map((t) => `</${t}>`);
const odd = fc.constantFrom(
  '<!DOCTYPE html>',
  '<!-- c',
  '-->',
  '<![CDATA[x]]>',
  '&amp;',
  '&#0;',
  '&#xD800;',
  '&bogus;',
  '<',
  '>',
  '\u0000',
  '\u001b[31m',
  '\uFEFF',
  '<?xml version="1.0"?>',
  '<a href=',
  '"',
);
const piece = fc.oneof(text, open, close, odd);
const markup = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));
const nested = fc
  .tuple(fc.constantFrom('div', 'b', 'span', 'li', 'td'), fc.integer({ min: 0, max: 600 }), text)
  .map(([t, n, inner]) => `<${t}>`.repeat(n) + inner + `</${t}>`.repeat(n % 2 === 0 ? n : 0));
const page = fc.oneof(markup, nested);

const options = fc.record<ShapeOptions>({
  format: fc.constantFrom('html', 'text', 'markdown'),
  readability: fc.constantFrom('off', 'article', 'strict'),
  targetSelector: fc.option(fc.constantFrom('main', '#x', 'div > p', '[', 'a:has(', '*'), { nil: undefined }),
  links: fc.boolean(),
  images: fc.boolean(),
});

describe('extraction over arbitrary markup', () => {
  it('shapeHtml answers a page or a stated refusal', () => {
    fc.assert(
      fc.property(page, options, (html, o) => {
        const out = shapeHtml(html, 'https://example.test/a/b', o);
        if (out.ok) {
          expect(typeof out.page.content).toBe('string');
          expect(typeof out.page.title).toBe('string');
          // Links come out absolute (or are dropped), never the raw attribute.
          for (const l of out.page.links ?? []) expect(l.url).toMatch(/^[a-z][a-z0-9+.-]*:/i);
        } else expect(['selector-miss', 'invalid-selector', 'no-main-content', 'too-complex']).toContain(out.reason);
      }),
      { numRuns: 300 },
    );
  });

  it('the LiveDoc extraction answers Markdown or a DocumentRefused', () => {
    fc.assert(
      fc.property(page, (html) => {
        try {
          const out = extractHtml(html, 'fallback', 'https://example.test/');
          expect(typeof out.markdown).toBe('string');
        } catch (err) {
          expect(err).toBeInstanceOf(DocumentRefused);
        }
      }),
      // A row outside any table reached turndown's GFM table rules with no table (a TypeError).
      { numRuns: 300, examples: [['<svg><tr><'], ['<td>a</td><th>b</th>']] },
    );
  });
});
