import { describe, expect, it } from 'vitest';
import { documentLimitsFrom } from '../../../src/server/engines/extract/limits.js';

/** FACET_DOCUMENT_LIMITS raises (or lowers) a document limit for a server whose users need it. */
describe('document limits from the environment', () => {
  it('replaces the named limits and keeps the others', () => {
    const defaults = documentLimitsFrom(undefined);
    const raised = documentLimitsFrom(' pdfMaxPages=5000, docxMaxParagraphs = 100000 ');
    expect(raised.pdfMaxPages).toBe(5000);
    expect(raised.docxMaxParagraphs).toBe(100_000);
    expect(raised.htmlMaxDepth).toBe(defaults.htmlMaxDepth);
    expect(defaults.pdfMaxPages).toBe(1000);
  });

  it('refuses an unknown name or a value that is not a positive whole number, naming it', () => {
    expect(() => documentLimitsFrom('pdfMaxPage=10')).toThrow(/pdfMaxPage is not a document limit/);
    expect(() => documentLimitsFrom('pdfMaxPages=0')).toThrow(/pdfMaxPages takes a whole number of at least 1, not 0/);
    expect(() => documentLimitsFrom('pdfMaxPages=lots')).toThrow(/not lots/);
  });
});
