import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Documents tried as a new user would, with questions written before any answer was read (session
 * 61's fresh check): Debian's base-files FAQ as plain text, tr(1) as groff renders it, ws's README.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f), 'utf8');
const docs = async () => [
  { id: 'faq', title: 'base-files-faq', text: plainTextToMarkdown(read('base-files-faq.txt')) },
  { id: 'tr', title: 'TR', text: extractHtml(read('tr.html')).markdown },
  { id: 'ws', title: 'ws: a Node.js WebSocket library', text: read('ws-readme.md') },
];

describeAnswersOver('fresh documents: a plain-text FAQ and a man page', docs, (ask) => {
  // The FAQ's answer is a paragraph of two sentences; only its first was said, which does not answer.
  it("How do I know which distribution I'm running? is answered by the answer's whole paragraph", async () => {
    expect(await ask("How do I know which distribution I'm running?")).toMatch(/\/etc\/apt\/sources\.list/);
  });

  // groff sets `[:xdigit:]` apart by its indent only; it was a sentence of its own, said as the answer.
  it('What does [:xdigit:] mean in tr? is answered by its description', async () => {
    expect(await ask('What does [:xdigit:] mean in tr?')).toMatch(/all hexadecimal digits/);
  });

  // "HTTP/3" was held as "HTTP" and "3" apart (an HTTP/S server, `level: 3`): `level: 3` was the answer.
  it('Does ws support HTTP/3? is not covered; a name joined to a number the README writes is', async () => {
    expect(await ask('Does ws support HTTP/3?')).toMatch(/^Your sources do not cover this question/);
    expect(await ask('What does utf-8-validate provide in ws?')).toMatch(/binary polyfill/);
  });
});
