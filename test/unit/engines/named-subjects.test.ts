/* A question naming a source in a setting clause is one question, not one subject per clause. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

const doc = (ref: number, title: string, file: string) => ({
  ref,
  title,
  link: '',
  content: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, file), 'utf8')),
});

/**
 * Pino's LTS page and date's man page (bench/content's dev split): "Release Date" holds the man
 * page's title, so the clause after the comma was taken for a second subject and answered "no
 * passage found about Date".
 */
it('a clause asking a question of its own after a setting is no second subject', () => {
  const answer = extractiveAnswer({
    query: `In Pino's LTS page (under "Schedule"), what is the Release Date of 9.x?`,
    passages: [doc(1, 'Pino Long Term Support', 'pino-lts.html'), doc(2, 'DATE', 'date-man.html')],
    history: [],
  });
  expect(answer).toMatch(/For 9\.x, Release Date: 2024-04-26\. \[1\]/);
  expect(answer).not.toMatch(/no passage found|\*\*Date\*\*/);
});

it('sources named on both sides of "and" are still answered one by one', () => {
  const answer = extractiveAnswer({
    query: 'How do I install Pino and date?',
    passages: [doc(1, 'Pino Long Term Support', 'pino-lts.html'), doc(2, 'DATE', 'date-man.html')],
    history: [],
  });
  expect(answer).toMatch(/^- \*\*Pino\*\*: /m);
  expect(answer).toMatch(/^- \*\*date\*\*: /m);
});

const fixture = (ref: number, title: string, file: string) => ({
  ref,
  title,
  link: '',
  content: readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs', file), 'utf8'),
});

/**
 * negotiator's and mime-types' READMEs: "mime" of "adds mime type validation" names mime-types, so
 * the clause was taken for a second subject and answered "no passage found about mime".
 */
it('a later side saying more than a name is no subject: it goes on asking about the first', () => {
  const answer = extractiveAnswer({
    query: 'Which module builds on negotiator and adds mime type validation?',
    passages: [fixture(1, 'negotiator', 'negotiator-readme.md'), fixture(2, 'mime-types', 'mime-types-readme.md')],
    history: [],
  });
  expect(answer).toMatch(/The \[accepts\]\([^)]*\) module builds on this module/);
  expect(answer).not.toMatch(/no passage found|\*\*mime\*\*/);
});
