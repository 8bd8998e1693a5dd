import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A dotted name a question states ("Node.js", "uuid.parse()") is held by a source only as written:
 * arg's README runs `node cli.js` and has a `--version` flag, and says nothing of which Node.js it
 * needs, which was answered with `'--version': Boolean`.
 */
const read = (f: string) => readFileSync(path.join(BENCH_DOCS, f), 'utf8');
const docs = async () => [
  { id: 'arg', title: 'arg', text: htmlToMarkdown(read('arg-readme.html')) },
  { id: 'lts', title: 'Pino Long Term Support', text: htmlToMarkdown(read('pino-lts.html')) },
];

describeAnswersOver('dotted names', docs, (ask) => {
  it('Which Node.js version does arg require? is not covered', async () => {
    expect(await ask('Which Node.js version does arg require?')).toMatch(/^Your sources do not cover this question/);
  });

  it('a source that writes Node.js answers about it', async () => {
    expect(await ask('Which Node.js versions does pino 8.x support?')).toMatch(/14/);
  });
});

it('a sentence stating Node.js answers, one with only node and js does not', () => {
  const ask = (content: string) =>
    extractiveAnswer({
      query: 'Which Node.js version does the tool require?',
      passages: [{ ref: 1, title: 'tool', link: '', content }],
      history: [],
    });
  expect(ask('The tool requires Node.js 18 or later. Run it with npx.')).toMatch(/Node\.js 18/);
  expect(ask('Run the tool with node cli.js --version to print its version. It requires a terminal.')).toMatch(
    /^Your sources do not cover this question/,
  );
});

it('a version ("9.x") is not a dotted name: "Pino 9" answers a question about 9.x', () => {
  const answer = extractiveAnswer({
    query: 'Which Node.js versions does pino 9.x support?',
    passages: [
      {
        ref: 1,
        title: 'Pino',
        link: '',
        content: 'Pino 9 supports the Node.js release lines 18, 20 and 22, which are in their active LTS phase.',
      },
    ],
    history: [],
  });
  expect(answer).toMatch(/18, 20 and 22/);
});
