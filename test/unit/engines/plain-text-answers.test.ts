import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { convertFile } from '../../../src/server/engines/extract/convert.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

/**
 * A plain-text FAQ uploaded as a .txt file (Valgrind's, from its dev split): its numbered questions
 * are headings, and a question that asks what one of them asks is answered by that section's
 * opening paragraph. It was answered with the FAQ's question itself, or a sentence from its middle:
 * a `~~~` underline had fenced the whole file, and no unit had a heading.
 */
const faq = async () => {
  const data = readFileSync(path.join(BENCH_DOCS, 'valgrind-faq.txt'));
  const { text } = await convertFile(data, { fileName: 'valgrind-faq.txt', mimeType: 'text/plain' });
  return text!;
};
const ask = async (query: string) =>
  extractiveAnswer({
    query,
    passages: [{ ref: 1, title: 'valgrind-faq', link: '', content: await faq() }],
    history: [],
  });

it('an uploaded .txt keeps its headings: the numbered questions', async () => {
  const text = await faq();
  expect(text).toMatch(/^## 5\.4\. Is it possible to attach Valgrind to a program that is already running\?$/m);
  expect(text).not.toMatch(/^~~~/m);
});

it.each([
  [
    'Can Valgrind attach to a program that is already running?',
    /^According to your sources: No\..*full control from the very start\./,
  ],
  ['Where does the name Valgrind come from?', /^According to your sources: From Nordic mythology\./],
])('%s is answered by the opening of its section', async (question, answer) => {
  expect(await ask(question)).toMatch(answer);
});

it('a question naming more than a heading holds is answered by its best unit, not an opening', async () => {
  expect(await ask('Which option helps find where Memcheck uninitialised values come from?')).toContain(
    '--track-origins=yes',
  );
});

it('an item that opens with a quoted name defines it: each quoted part of a question finds its own item', async () => {
  // Before, the section's heading named every kind of leak, so its items tied, and "suppressed"
  // (which also says "leak") answered what "still reachable" means.
  const answer = await ask(
    'What does "still reachable" mean in Memcheck\'s leak report, and what does "definitely lost" mean?',
  );
  expect(answer).toMatch(/^According to your sources: "still reachable" means your program is probably ok/);
  expect(answer).toContain('"definitely lost" means your program is leaking memory -- fix those leaks! [1]');
  expect(answer).not.toContain('"suppressed"');
});
