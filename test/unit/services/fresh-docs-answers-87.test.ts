import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 87's fresh check: envsubst(1) as groff writes it (help2man's subsections in one bold
 * paragraph with the first option), clsx's README as a LibreOffice DOCX (each build's path in a
 * list), chinese-workday's Chinese README and gzip(1); questions written before any answer was read.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f));
const envsubst = () => extractHtml(read('envsubst.html').toString('utf8')).markdown;
const docs = async () => [
  { id: 'envsubst', title: 'ENVSUBST', text: envsubst() },
  { id: 'clsx', title: 'clsx', text: (await extractDocument('docx', read('clsx-readme.docx'))).text },
  {
    id: 'gzip',
    title: 'GZIP',
    text: extractHtml(readFileSync(path.join(BENCH_DOCS, 'gzip-man.html'), 'utf8')).markdown,
  },
];

it("reads help2man's subsection over its first option as a heading, the option as a term", () => {
  expect(envsubst()).toContain('### Operation mode\n\n**\\-v**, **\\--variables**\n\noutput the variables');
});

describeAnswersOver('session 87: fresh documents', docs, (ask) => {
  it('answers an option that opens a subsection from its own description', async () => {
    expect(await ask('What does envsubst -v do?')).toContain('output the variables occurring in SHELL-FORMAT');
  });

  it('answers "where is" with the path, and nothing after it that names no place', async () => {
    const answer = await ask('Where is the CommonJS build of clsx?');
    expect(answer).toContain('`dist/clsx.js`');
    expect(answer).not.toContain('Availability');
  });

  it('answers "what happens when" with the sentence setting that case, not the name line', async () => {
    const answer = await ask('What happens if a SHELL-FORMAT is given to envsubst?');
    expect(answer).not.toContain('substitutes environment variables in shell format strings');
    expect(await ask('What exit status does gzip return when a warning occurs?')).toMatch(
      /^According to your sources: If a warning occurs, exit status is 2\. \[\d\]$/,
    );
  });
});

const workday = async () => [
  { id: 'workday', title: '🇨🇳 Chinese Workday', text: read('chinese-workday-readme.md').toString('utf8') },
  { id: 'clsx', title: 'clsx', text: (await extractDocument('docx', read('clsx-readme.docx'))).text },
  { id: 'tmux', title: 'tmux-readme', text: plainTextToMarkdown(read('tmux-readme.txt').toString('utf8')) },
  { id: 'scule', title: 'scule', text: (await extractDocument('docx', read('scule-readme.docx'))).text },
  { id: 'fs-extra', title: 'fs-extra-readme', text: (await extractDocument('pdf', read('fs-extra-readme.pdf'))).text },
];

it("reads an outline's starred lines as headings, not one-item lists", () => {
  const md = plainTextToMarkdown(read('tmux-readme.txt').toString('utf8'));
  expect(md).toContain('## Dependencies\n\ntmux depends on libevent 2.x');
  expect(md).toContain('## License\n\nThis file and the CHANGES files are licensed under the ISC license.');
});

describeAnswersOver('session 87: a Chinese README, an outline, a DOCX', workday, (ask) => {
  it('answers an English question from a Chinese section through the glossary (日期格式: date formats)', async () => {
    const answer = await ask('What date formats does chinese-workday support?');
    expect(answer).toContain('`1727712000000`');
    expect(answer).not.toContain('do not cover');
  });

  it('answers what tmux depends on from its outline section, libevent before "It also depends on ncurses"', async () => {
    const answer = await ask('What does tmux depend on?');
    expect(answer).toMatch(/^According to your sources: tmux depends on libevent 2\.x, available from:/);
    expect(answer).toContain('It also depends on ncurses');
    expect(answer).not.toContain('Dependencies.');
  });

  it('reads "a.k.a." as "also known as"', async () => {
    expect(await ask('What is Train-Case also known as?')).toContain('HTTP-Header-Case');
  });

  it('reads "ESM" as "ES module", and the reverse', async () => {
    expect(await ask('How do I import fs-extra as an ES module?')).toContain('`fs-extra/esm`');
  });
});
