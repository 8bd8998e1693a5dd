import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A price is a figure, and "licence" is "License". Over bench/content's dev documents: the zlib
 * FAQ says zlib may be used commercially, not what a licence costs, and "Please read the license in
 * zlib.h" answered; a README's licence is still found.
 */
const read = (f: string) => readFileSync(path.join(BENCH_DOCS, f), 'utf8');
const docs = async () => [
  { id: 'lts', title: 'Pino Long Term Support', text: htmlToMarkdown(read('pino-lts.html')) },
  { id: 'debug', title: 'debug', text: read('debug-readme.md') },
  { id: 'send', title: 'send', text: read('send-readme.md') },
  { id: 'gzip', title: 'GZIP', text: htmlToMarkdown(read('gzip-man.html')) },
  { id: 'zlib', title: 'zlib-faq', text: plainTextToMarkdown(read('zlib-faq.txt')) },
];

describeAnswersOver('prices and licences', docs, (ask) => {
  it('How much does a commercial zlib licence cost? is not covered', async () => {
    expect(await ask('How much does a commercial zlib licence cost?')).toMatch(
      /^Your sources do not cover this question/,
    );
  });

  it('What is the license of the debug module? is answered', async () => {
    expect(await ask('What is the license of the debug module?')).toMatch(/MIT/);
  });

  // "gzip" names whose option it is; "option" is what is asked for, and a flag is one.
  it('Which gzip option keeps the input files? is answered', async () => {
    expect(await ask('Which gzip option keeps the input files?')).toMatch(/--keep/);
  });
});

// A quantity asked for ("at what temperature") is answered by its figure, though the sentence
// never says "temperature".
it('At what temperature does water boil in a kettle? is answered by the figure', () => {
  const content = 'A kettle heats water with an element until the water boils at 100 degrees Celsius.';
  const answer = extractiveAnswer({
    query: 'At what temperature does water boil in a kettle?',
    passages: [{ ref: 1, title: 'Kettles', link: '', content }],
    history: [],
  });
  expect(answer).toMatch(/100 degrees Celsius/);
});
