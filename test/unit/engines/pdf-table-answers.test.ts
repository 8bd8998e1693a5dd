import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

/**
 * The buffer README printed to PDF by Chromium (bench/content's dev split) has one benchmark table
 * per browser, each with the same rows. A cell is answered from its section's table, and a row said
 * where another table has the same row names its section: two bare values could not be told apart.
 */
const ask = async (query: string) => {
  const { text } = await extractDocument('pdf', readFileSync(path.join(BENCH_DOCS, 'buffer-readme.pdf')));
  return extractiveAnswer({ query, passages: [{ ref: 1, title: 'buffer', link: '', content: text }], history: [] });
};

it('a cell of a named section is its table’s, said with the section', async () => {
  expect(
    await ask('In the buffer README (under "Safari 8"), what is the Accuracy of BrowserBuffer#readDoubleBE?'),
  ).toBe('For BrowserBuffer#readDoubleBE (Safari 8), Accuracy: ±1.06%. [1]');
});

it('rows of several tables are each said with their section', async () => {
  const answer = await ask('What is the accuracy of BrowserBuffer#readDoubleBE?');
  expect(answer).toMatch(
    /^For BrowserBuffer#readDoubleBE \((Chrome 38|Firefox 33|Safari 8|Node 0\.11\.14|iojs 1\.8\.1)\), Accuracy: ±[\d.]+%\. \[1\]/,
  );
  expect(answer).not.toMatch(/For BrowserBuffer#readDoubleBE, /);
});
