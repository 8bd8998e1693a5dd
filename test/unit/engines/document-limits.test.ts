import { describe, expect, it } from 'vitest';
import { checkHtml } from '../../../src/server/engines/extract/html-guard.js';
import { shapeHtml } from '../../../src/server/engines/extract/shape-html.js';
import { DOCUMENT_LIMITS, DocumentRefused } from '../../../src/server/engines/extract/limits.js';
import { readZip } from '../../../src/server/engines/extract/zip-guard.js';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { readTemplateTheme } from '../../../src/server/engines/slides/template-theme.js';
import {
  docxBomb,
  docxOf,
  flatPage,
  flateBombPdf,
  lyingSizes,
  manyPagePdf,
  nestedDivs,
  themeBomb,
  unclosedInline,
  zipOf,
} from '../../helpers/bombs.js';
import { makePdf, makePptx } from '../../helpers/documents.js';

/** The refusal a call ends in: its code and the limit it names. */
async function refusal(work: () => unknown): Promise<DocumentRefused> {
  try {
    await work();
  } catch (err) {
    if (err instanceof DocumentRefused) return err;
    throw err;
  }
  throw new Error('expected a DocumentRefused, got a result');
}

describe('HTML is measured before it is parsed', () => {
  it('nesting: at the depth limit it is read, one deeper it is refused naming htmlMaxDepth', async () => {
    // <html><body> add two levels.
    const limit = DOCUMENT_LIMITS.htmlMaxDepth;
    expect(() => checkHtml(nestedDivs(limit - 2))).not.toThrow();
    const shaped = shapeHtml(nestedDivs(limit - 2), 'http://x/', { format: 'text', readability: 'off' });
    expect(shaped.ok && shaped.page.content).toContain('deep');
    expect(await refusal(() => checkHtml(nestedDivs(limit - 1)))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'htmlMaxDepth',
      status: 413,
    });
    expect(shapeHtml(nestedDivs(5_000), 'http://x/', { format: 'markdown', readability: 'article' })).toMatchObject({
      ok: false,
      reason: 'too-complex',
      limit: 'htmlMaxDepth',
    });
  });

  it('inline tags left open count as nesting; implied closes (li, p) do not', async () => {
    expect(await refusal(() => checkHtml(unclosedInline(1_000)))).toMatchObject({ limit: 'htmlMaxDepth' });
    expect(() =>
      checkHtml(`<html><body><ul>${'<li>item '.repeat(2_000)}</ul>${'<p>para '.repeat(2_000)}</body></html>`),
    ).not.toThrow();
  });

  it('a flat 15 MB page is refused by its element count; elements at the limit are read', async () => {
    expect(await refusal(() => checkHtml(flatPage(15 * 1024 * 1024)))).toMatchObject({
      limit: 'htmlMaxElements',
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(() =>
      checkHtml(`<html><body>${'<br>'.repeat(DOCUMENT_LIMITS.htmlMaxElements - 2)}</body></html>`),
    ).not.toThrow();
    expect(
      await refusal(() => checkHtml(`<html><body>${'<br>'.repeat(DOCUMENT_LIMITS.htmlMaxElements - 1)}</body></html>`)),
    ).toMatchObject({ limit: 'htmlMaxElements' });
  });

  it('text beyond htmlMaxChars is refused; scripts and styles do not count', async () => {
    const text = 'x'.repeat(DOCUMENT_LIMITS.htmlMaxChars);
    expect(await refusal(() => checkHtml(`<p>${text}</p>`))).toMatchObject({ limit: 'htmlMaxChars' });
    expect(() => checkHtml(`<script>${text}</script><style>${text}</style><p>short</p>`)).not.toThrow();
  });

  it('a page of bare text, or an empty one, is shaped instead of crashing linkedom', () => {
    for (const html of ['hello', '', '<p>a fragment</p>']) {
      const shaped = shapeHtml(html, 'http://x/', { format: 'markdown', readability: 'article' });
      expect(shaped.ok, html).toBe(true);
      if (shaped.ok) expect(shaped.page.content).toBe(html.replace(/<\/?p>/g, ''));
    }
  });
});

describe('ZIP-based files are checked entry by entry before inflating', () => {
  it('an honest zip bomb is refused from its central directory (total size), as DOCX and as a template', async () => {
    const bomb = await docxBomb(110 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await refusal(() => extractDocument('docx', bomb))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'zipMaxUncompressedBytes',
    });
    expect(await refusal(async () => readTemplateTheme(await themeBomb(110 * 1024 * 1024)))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'zipMaxUncompressedBytes',
    });
  });

  it('an entry compressed past the ratio limit is refused; a small one may compress as it likes', async () => {
    expect(await refusal(async () => extractDocument('docx', await docxBomb(20 * 1024 * 1024)))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'zipMaxRatio',
    });
    const small = await readZip(await zipOf({ 'a.txt': Buffer.alloc(900 * 1024, 0x20) }), 'x');
    expect(small.get('a.txt')?.length).toBe(900 * 1024);
  });

  it('a file that is not a ZIP is a 400, not a crash', async () => {
    expect(await refusal(() => readZip(Buffer.from('not a zip at all'), 'a .docx document'))).toMatchObject({
      code: 'INVALID_PARAMETER',
      status: 400,
    });
  });

  it('a header that lies about a size cannot inflate past it', async () => {
    const lying = lyingSizes(await zipOf({ 'ppt/theme/theme1.xml': Buffer.alloc(50 * 1024 * 1024, 0x20) }), 1_000);
    const err = await refusal(() => readZip(lying, 'a template'));
    expect(err.code).toBe('INVALID_PARAMETER');
    expect(err.message).toMatch(/too many bytes/);
  });

  it('too many entries are refused from the end record, before any entry is read', async () => {
    const entries = Object.fromEntries(
      Array.from({ length: DOCUMENT_LIMITS.zipMaxEntries + 1 }, (_, i) => [`f${i}`, '']),
    );
    expect(await refusal(async () => readZip(await zipOf(entries), 'x'))).toMatchObject({ limit: 'zipMaxEntries' });
  });

  it('a DOCX of a million empty paragraphs answers with a refusal, and paragraphs past the limit are refused', async () => {
    expect(await refusal(async () => extractDocument('docx', await docxOf('<w:p/>', 1_000_000)))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'zipMaxRatio',
    });
    // Under a megabyte, so the ratio does not apply: the paragraph count does.
    expect(
      await refusal(async () => extractDocument('docx', await docxOf('<w:p/>', DOCUMENT_LIMITS.docxMaxParagraphs + 1))),
    ).toMatchObject({ limit: 'docxMaxParagraphs' });
    const atLimit = await extractDocument('docx', await docxOf('<w:p><w:r><w:t>hi</w:t></w:r></w:p>', 1_000));
    expect(atLimit.text).toContain('hi');
  });

  it('PPTX slides past the limit are refused; a slide of unclosed or too deeply nested XML is refused, never a stack overflow', async () => {
    const slides = Array.from({ length: DOCUMENT_LIMITS.pptxMaxSlides + 1 }, (_, i) => [`Slide ${i}`]);
    expect(await refusal(async () => extractDocument('pptx', await makePptx(slides)))).toMatchObject({
      limit: 'pptxMaxSlides',
    });
    expect((await extractDocument('pptx', await makePptx([['Title', 'Body']]))).text).toContain('Body');
    for (const xml of [`${'<a:p>'.repeat(200_000)}<a:p>last</a:p>`, `${'<a:r>'.repeat(300)}${'</a:r>'.repeat(300)}`]) {
      const deck = await zipOf({ '[Content_Types].xml': '<Types/>', 'ppt/slides/slide1.xml': xml });
      const err = await refusal(() => extractDocument('pptx', deck));
      expect(err).toMatchObject({ code: 'INVALID_PARAMETER', status: 400 });
      expect(err.message).toMatch(/ppt\/slides\/slide1\.xml of the deck cannot be read: .*nested/i);
    }
    // Entities and character references are decoded once, by the parser.
    const escaped = await zipOf({
      'ppt/slides/slide1.xml': '<p:sld><a:p><a:r><a:t>R&amp;D &#233;t&#xE9; &lt;1&gt;</a:t></a:r></a:p></p:sld>',
    });
    expect((await extractDocument('pptx', escaped)).text).toContain('R&D été <1>');
  });
});

describe('PDFs are bounded before their pages are read', () => {
  it('a PDF of 100,000 pages is refused naming pdfMaxPages; a small one is read', async () => {
    expect(await refusal(() => extractDocument('pdf', manyPagePdf(100_000)))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      limit: 'pdfMaxPages',
    });
    const pdf = await extractDocument('pdf', makePdf([['first page'], ['second page']]));
    expect(pdf.text).toContain('second page');
  });

  it('a Flate bomb is refused naming pdfMaxStreamBytes before pdf.js reads it', async () => {
    expect(
      await refusal(() => extractDocument('pdf', flateBombPdf(DOCUMENT_LIMITS.pdfMaxStreamBytes + 1))),
    ).toMatchObject({ limit: 'pdfMaxStreamBytes' });
    await expect(extractDocument('pdf', flateBombPdf(1024))).resolves.toMatchObject({ text: '' });
  });
});
