import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A question offering a choice ("Is Chalk 5 CommonJS or ESM?") is answered by a source stating
 * either: chalk's README says "Chalk 5 is ESM" and never "CommonJS", and the answer had been
 * "not covered". A choice neither side of which a source holds stays uncovered.
 * (chalk's README as a LibreOffice DOCX, debug's README: bench/content/docs, nobody here wrote them.)
 */
describeAnswersOver(
  'a question offering a choice of two',
  async () => [
    {
      id: 'chalk',
      title: 'chalk-readme',
      text: (await extractDocument('docx', readFileSync(path.join(BENCH_DOCS, 'chalk-readme.docx')))).text,
    },
    { id: 'debug', title: 'debug', text: readFileSync(path.join(BENCH_DOCS, 'debug-readme.md'), 'utf8') },
  ],
  (ask) => {
    it('is answered by the alternative the source states', async () => {
      expect(await ask('Is Chalk 5 CommonJS or ESM?')).toContain('Chalk 5 is ESM.');
    });

    it('is not covered when the source states neither', async () => {
      expect(await ask('Is Chalk 5 written in Rust or Go?')).toMatch(/do not cover/);
    });
  },
);
