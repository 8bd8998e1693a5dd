import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { documentUnits } from '../../../src/server/text/units.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * READMEs tried as a new user would, after the engine was written (fastq's and busboy's as shipped,
 * test/fixtures/real-docs, with bench/content's arg page). Each question was answered wrongly or
 * refused before: a table of contents written as HTML links was quoted as the answer, "licence"
 * never met "License", "how long" asked for the word "long", and busboy's first section heading
 * ("Description") was taken for its name, so "install fastq and busboy" found no busboy.
 */
const fixture = (f: string) => readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs', f), 'utf8');
const docs = async () => [
  { id: 'fastq', title: 'fastq', text: fixture('fastq-readme.md') },
  { id: 'busboy', title: 'busboy', text: fixture('busboy-readme.md') },
  { id: 'arg', title: 'arg', text: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, 'arg-readme.html'), 'utf8')) },
];

it('a table of contents written as HTML links is navigation, not text', () => {
  const toc =
    '* <a href="#install">Installation</a>\n* <a href="#usage">Usage</a>\n\nSome <a href="#x">linked</a> prose.';
  expect(documentUnits(toc).map((u) => u.text)).toEqual(['Some linked prose.']);
});

describeAnswersOver('real READMEs nobody here wrote', docs, (ask) => {
  it('How do I install fastq? quotes the command alone', async () => {
    const a = await ask('How do I install fastq?');
    expect(a).toMatch(/npm i fastq --save/);
    expect(a).not.toMatch(/href/);
  });

  it('What licence is fastq released under? is answered', async () => {
    expect(await ask('What licence is fastq released under?')).toMatch(/ISC/);
  });

  it('How long did fastq take for 1 million tasks? is answered', async () => {
    expect(await ask('How long did fastq take for 1 million tasks?')).toMatch(/fastq: 854ms/);
  });

  it('How do I install fastq and busboy? answers both', async () => {
    const a = await ask('How do I install fastq and busboy?');
    expect(a).toMatch(/npm i fastq --save/);
    expect(a).toMatch(/npm install busboy/);
  });

  // fastq's sentence about Node versions sits under a heading naming `worker(arg)`: it is not arg's.
  // The option's section sits under "Options": with only its own heading, the sentence saying what
  // it does did not know it was about an option, and a code line was the answer.
  it("What does arg's permissive option do? is answered by what its section says", async () => {
    expect(await ask("What does arg's permissive option do?")).toMatch(/push any unknown arguments onto the "extra"/);
  });

  it('Which Node.js version does arg require? is not answered from fastq', async () => {
    expect(await ask('Which Node.js version does arg require?')).not.toMatch(/Node v10\+/);
  });
});
