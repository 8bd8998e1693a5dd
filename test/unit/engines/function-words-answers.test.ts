import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { termsOf } from '../../../src/server/text/terms.js';
import { oneWordVerbs } from '../../../src/server/text/verbs.js';

/**
 * Questions asked in other words than their source's, written before the engine ran on them
 * (bench/content's "para-" questions): function words ("whose", "against", "once") and light verbs
 * with their particles ("put", "keep", "turn … back") weighed as key terms no source holds, and
 * refused answerable questions.
 */
const DOCS = path.join(import.meta.dirname, '../../../bench/content/docs');
const source = (file: string, title: string) => [
  { ref: 1, title, link: '', content: readFileSync(path.join(DOCS, file), 'utf8') },
];

it('function words are no terms', () => {
  expect(termsOf('files whose names start with a dot, tested against a glob, used once')).toEqual(
    expect.not.arrayContaining(['whose', 'against', 'onc']),
  );
});

it('answers questions whose other words are function words or light verbs', () => {
  const send = source('send-readme.md', 'send');
  expect(
    extractiveAnswer({ query: 'How does send treat files whose names start with a dot?', passages: send, history: [] }),
  ).toContain('dotfiles');
  expect(oneWordVerbs("How do I turn colors off in debug's output?")).toContain('disable colors');
});
