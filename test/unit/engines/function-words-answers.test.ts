import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { termsOf } from '../../../src/server/text/terms.js';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { inDocumentWords } from '../../../src/server/text/verbs.js';

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
  expect(inDocumentWords("How do I turn colors off in debug's output?")).toContain('disable colors');
});

/**
 * A man page says "EXIT STATUS" where a question says "exit code", and the other way round: a
 * number asked with its word ("exit code 125") must be held with that word, so xargs' exit codes,
 * under "EXIT STATUS", were all refused. "return" in "what exit status does cmp return" is a
 * phrasing verb, not what is asked.
 */
it('answers an exit code from a man page that says exit status', () => {
  const page = (file: string, title: string) => [
    { ref: 1, title, link: '', content: htmlToMarkdown(readFileSync(path.join(DOCS, file), 'utf8')) },
  ];
  expect(termsOf('EXIT STATUS')).toEqual(expect.arrayContaining(['exit', 'code', 'statu']));
  const xargs = page('xargs-man.html', 'XARGS');
  expect(
    extractiveAnswer({ query: 'What does exit code 125 mean for xargs?', passages: xargs, history: [] }),
  ).toContain('killed by a signal');
  const cmp = page('cmp-man.html', 'CMP');
  expect(
    extractiveAnswer({ query: 'What exit status does cmp return when the files differ?', passages: cmp, history: [] }),
  ).toContain('1 if different');
});
