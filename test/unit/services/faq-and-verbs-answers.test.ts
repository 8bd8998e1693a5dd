import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Answers over documents added to bench/content's dev split after the engine was written, asked
 * before it had seen them (issue 44): the zlib FAQ (plain text numbered 1., 2., …), the date and
 * cmp man pages, the send README. Each of these was answered wrongly or refused before.
 */
const read = (f: string) => readFileSync(path.join(BENCH_DOCS, f), 'utf8');
const docs = async () => [
  { id: 'zlib', title: 'zlib-faq', text: plainTextToMarkdown(read('zlib-faq.txt')) },
  { id: 'date', title: 'DATE', text: htmlToMarkdown(read('date-man.html')) },
  { id: 'cmp', title: 'CMP', text: htmlToMarkdown(read('cmp-man.html')) },
  { id: 'gzip', title: 'GZIP', text: htmlToMarkdown(read('gzip-man.html')) },
  { id: 'send', title: 'send', text: read('send-readme.md') },
];

describeAnswersOver('FAQ entries, verb forms and "compare" as a task', docs, (ask) => {
  // The question was the answer: a numbered FAQ entry was a list item, its answer a paragraph after it.
  it('Is zlib thread-safe? is answered by the entry, not by its question', async () => {
    const a = await ask('Is zlib thread-safe?');
    expect(a).toMatch(/must also be thread-safe/);
  });

  // Its answer names inflate() and deflate() in every line; it was read as code and passed over.
  it('Can zlib work with more than 4 GB of data? is answered by the opening of its entry', async () => {
    expect(await ask('Can zlib work with more than 4 GB of data?')).toMatch(
      /will process any amount of data correctly/,
    );
  });

  // "wrote" is "Written": an irregular verb's forms are one word.
  it('Who wrote date? is answered', async () => {
    expect(await ask('Who wrote date?')).toMatch(/Written by David MacKenzie/);
  });

  // "turn on" is what the document calls "enable".
  it("How do I turn on send's debug output? is answered", async () => {
    expect(await ask("How do I turn on send's debug output?")).toMatch(/DEBUG=send node app/);
  });

  // The section's sentence after cmp's last option was read as part of -v's description.
  it('What exit status does cmp return when the files differ? is not said as an option', async () => {
    const a = await ask('What exit status does cmp return when the files differ?');
    expect(a).toMatch(/Exit status is 0 if inputs are the same, 1 if different/);
    expect(a).not.toMatch(/--version/);
  });

  // cmp's page says nothing of directories; gzip's does, but the question names cmp.
  it('How do I compare two directories recursively with cmp? is not covered', async () => {
    expect(await ask('How do I compare two directories recursively with cmp?')).toMatch(
      /^Your sources do not cover this question/,
    );
  });
});
