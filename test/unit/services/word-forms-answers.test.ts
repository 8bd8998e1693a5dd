import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { inflectionless } from '../../../src/server/engines/answer/rank.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Real READMEs nobody here wrote (bench/content's dev split: picomatch's and uuid's as the Markdown
 * their PDF and web page were made from, Commander's), in one LiveDoc, asked as `facet ask` does.
 */
const sources = path.resolve(BENCH_DOCS, '../sources');
const docs = async () => [
  { id: 'picomatch', title: 'picomatch', text: readFileSync(path.join(sources, 'picomatch-readme.md'), 'utf8') },
  { id: 'uuid', title: 'uuid', text: readFileSync(path.join(sources, 'uuid-readme.md'), 'utf8') },
  { id: 'commander', title: 'Commander.js', text: readFileSync(path.join(BENCH_DOCS, 'commander-readme.md'), 'utf8') },
];

it('a word without its inflection: plurals, -ed and -ing go, derived words stay apart', () => {
  const same = (a: string, b: string) => expect(inflectionless(a)).toBe(inflectionless(b));
  same('rotates', 'rotate');
  same('rotated', 'rotating');
  same('libraries', 'library');
  same('matches', 'match');
  expect(inflectionless('symbolic')).not.toBe(inflectionless('symbols'));
  expect(inflectionless('completion')).not.toBe(inflectionless('complete'));
});

describeAnswersOver('answers over picomatch, uuid and Commander', docs, (ask) => {
  // "symbolic" is "symbol" to the stemmer: "Punctuation and symbols" was the answer.
  it('a question whose word the sources hold only as another word of its stem is not covered', async () => {
    expect(await ask('How do I make picomatch follow symbolic links?')).toMatch(
      /^Your sources do not cover this question/,
    );
  });

  // "the uuid command" names a command; the question asks for a version, which a sentence states.
  it('a command the question names is not a command it asks for', async () => {
    expect(await ask('Which UUID version does the uuid command generate by default?')).toMatch(/version 4/);
  });

  // The section named in quotes is where to look; its opening sentence does not answer "what is".
  it('a term defined under a quoted section is answered by its definition, not the section opening', async () => {
    expect(await ask('In the Commander README, what is command (under "Custom help")?')).toContain(
      'which is displaying the help',
    );
  });
});
