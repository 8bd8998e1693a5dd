import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { analyzeQuery } from '../../../src/server/engines/query-analysis.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A one-letter option is searched for ("what does -k do"): a man page's `-k` entry is indexed as the
 * word "k", too short to be a keyword, so the search found the page's other options instead and the
 * answer named one of those, or was refused. Real documents nobody here wrote (bench/content/docs).
 */
const manPages = async () => [
  ...['gzip-man.html', 'sort-man.html', 'pdftoppm-man.html'].map((f) => ({
    id: f.replace(/\W/g, '_'),
    title: f.replace(/-man\.html$/, ''),
    text: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, f), 'utf8')),
  })),
  // More sources, so the man page's option entries have more to compete with.
  ...['commander-readme.md', 'debug-readme.md', 'http-errors-readme.md'].map((f) => ({
    id: f.replace(/\W/g, '_'),
    title: f.replace(/-readme\.md$/, ''),
    text: readFileSync(path.join(BENCH_DOCS, f), 'utf8'),
  })),
];

it('the searches of a question keep a one-letter option written as one', () => {
  expect(analyzeQuery('What does the -a option of gzip do?')).toEqual(['option gzip -a']);
});

describeAnswersOver('a one-letter option asked of man pages', manPages, (ask) => {
  it.each([
    ['What does the -k option of gzip do?', /Keep \(don.t delete\) input files/],
    ['What does the -L option of gzip do?', /Display the \*\*gzip\*\* license/],
    // "a" is a word too, left out of searches unless written as an option.
    ['What does the -a option of gzip do?', /^\*\*-a --ascii\*\*: Ascii text mode: convert end-of-lines/],
    // A later sentence of an option's entry ("This option is the default…") comes with its first.
    [
      'Which gzip option is the default when decompressing?',
      /\*\*-n --no-name\*\*: When compressing, do not save the original file name and timestamp by default\..*This option is the default when decompressing\./,
    ],
  ])('%s', async (question, fact) => {
    expect(await ask(question)).toMatch(fact);
  });
});
