import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { answerIntent } from '../../../src/server/engines/answer-intent.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

/**
 * Words a question quotes are what it looks for, never how it wants its answer: "described as
 * 'takes a list of options'" asks which option, and was answered with a list of the description's
 * sentences, the option never named (pdftoppm's man page, from bench/content's dev split).
 */
it('a quoted "list" or "compare" does not make a list or a comparison', () => {
  expect(answerIntent('Which option is described as "takes a list of options"?')).toBe('answer');
  expect(answerIntent('What does the “compare two files” example print?')).toBe('answer');
  expect(answerIntent('List the options of "pdftoppm"')).toBe('list');
  // "the list of" names a thing a where-question asks the place of.
  expect(answerIntent('Where is the list of outstanding grep bugs?')).toBe('answer');
  expect(answerIntent('Give me a list of the options of grep')).toBe('list');
});

it('the option described by the quoted words is answered with its name', () => {
  const content = htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, 'pdftoppm-man.html'), 'utf8'));
  const answer = extractiveAnswer({
    query: 'Which option of pdftoppm is described as "when used with -jpeg, takes a list of options"?',
    passages: [{ ref: 1, title: 'pdftoppm', link: '', content }],
    history: [],
  });
  expect(answer).toMatch(/^\*\*-jpegopt\*\* _jpeg-options_: When used with -jpeg, takes a list of options/);
});
