import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * chalk's README opens with its logo as the whole first heading; LibreOffice keeps an empty Heading 1.
 * The title was read across the blank line from the tagline under it ("Terminal string styling done
 * right"), so "chalk" named no source and a question about chalk was "not covered". A document
 * whose heading says nothing is known by its file name (bench/content/docs, nobody here wrote it).
 */
const CHALK = path.join(BENCH_DOCS, 'chalk-readme.docx');

it('a DOCX whose first heading is empty has no title of its own', async () => {
  expect((await extractDocument('docx', readFileSync(CHALK))).title).toBeNull();
});

describeAnswersOver(
  'a README known by its file name, among others',
  async () => [
    { id: 'chalk', title: 'chalk-readme', text: (await extractDocument('docx', readFileSync(CHALK))).text },
    ...['debug-readme.md', 'commander-readme.md'].map((f) => ({
      id: f.replace(/\W/g, '_'),
      title: f.replace(/\.md$/, ''),
      text: readFileSync(path.join(BENCH_DOCS, f), 'utf8'),
    })),
  ],
  (ask) => {
    it('answers what names it', async () => {
      expect(await ask('What should chalk users on Windows use instead of cmd.exe?')).toContain('Windows Terminal');
    });
  },
);
