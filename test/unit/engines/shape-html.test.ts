import { describe, expect, it } from 'vitest';
import { shapeHtml } from '../../../src/server/engines/extract/shape-html.js';

const page = `<html><head><title>T</title></head><body><nav>menu <a href="/x">x</a></nav>
<main><article><h2>Head</h2><p>${'Words of the article. '.repeat(12)}</p><aside>side note</aside></article></main><footer>foot</footer></body></html>`;

describe('shapeHtml', () => {
  it('includeTags keeps only those elements (outermost), excludeTags removes them', () => {
    const r = shapeHtml(page, 'https://e.com/', {
      format: 'text',
      readability: 'off',
      includeTags: ['article', 'h2'],
      excludeTags: ['aside'],
    });
    expect(r.ok && r.page.content).toBe(`Head\n${'Words of the article. '.repeat(12).trim()}`);
  });
  it('an invalid selector is refused with its own reason', () => {
    const r = shapeHtml(page, 'https://e.com/', { format: 'text', readability: 'off', targetSelector: 'div[' });
    expect(r).toMatchObject({ ok: false, reason: 'invalid-selector' });
  });
  it('target_selector wins over readability, with a warning', () => {
    const r = shapeHtml(page, 'https://e.com/', { format: 'text', readability: 'article', targetSelector: 'footer' });
    expect(r.ok && r.page).toMatchObject({
      content: 'foot',
      readability: 'off',
      warnings: [expect.stringMatching(/not applied/)],
    });
  });
});
