import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * What a question asks for by name ("what licence", "which option") is what its answer is about,
 * and a price is a figure. Over bench/content's dev documents: the Pino LTS page states no licence,
 * and was answered with its sentence about the "Node.js LTS policy"; the zlib FAQ says zlib may be
 * used commercially, not what a licence costs, and "Please read the license in zlib.h" answered.
 */
const read = (f: string) => readFileSync(path.join(BENCH_DOCS, f), 'utf8');
const docs = async () => [
  { id: 'lts', title: 'Pino Long Term Support', text: htmlToMarkdown(read('pino-lts.html')) },
  { id: 'debug', title: 'debug', text: read('debug-readme.md') },
  { id: 'send', title: 'send', text: read('send-readme.md') },
  { id: 'gzip', title: 'GZIP', text: htmlToMarkdown(read('gzip-man.html')) },
  { id: 'zlib', title: 'zlib-faq', text: plainTextToMarkdown(read('zlib-faq.txt')) },
];

describeAnswersOver('what a question asks for by name', docs, (ask) => {
  it.each(['What licence is the Pino LTS policy published under?', 'How much does a commercial zlib licence cost?'])(
    '%s is not covered',
    async (question) => {
      expect(await ask(question)).toMatch(/^Your sources do not cover this question/);
    },
  );

  it('What is the license of the debug module? is answered', async () => {
    expect(await ask('What is the license of the debug module?')).toMatch(/MIT/);
  });

  // "gzip" names whose option it is; "option" is what is asked for, and a flag is one.
  it('Which gzip option keeps the input files? is answered', async () => {
    expect(await ask('Which gzip option keeps the input files?')).toMatch(/--keep/);
  });
});

// A quantity asked for by name ("at what temperature", "which version") is answered by a figure,
// whether or not the sentence says the word: it was refused once "temperature" had to be held.
it('At what temperature does water boil in a kettle? is answered by the figure', () => {
  const content = 'A kettle heats water with an element until the water boils at 100 degrees Celsius.';
  const answer = extractiveAnswer({
    query: 'At what temperature does water boil in a kettle?',
    passages: [{ ref: 1, title: 'Kettles', link: '', content }],
    history: [],
  });
  expect(answer).toMatch(/100 degrees Celsius/);
});
