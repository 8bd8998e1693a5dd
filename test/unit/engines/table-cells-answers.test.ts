import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { documentUnits } from '../../../src/server/text/units.js';

/** s3rver's README printed by Chromium (test/fixtures/real-docs, nobody here wrote it). */
const s3rver = async () => {
  const pdf = readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs/s3rver-readme.pdf'));
  return (await extractDocument('pdf', pdf)).text;
};

// A row written again (a chunk's table, an answer's row) wrote its cell's pipe bare: `string` |
// `Buffer` became two cells, and the row's type read "string".
it('a cell holding a pipe keeps it escaped, so the row written again keeps its cells', () => {
  const [row] = documentUnits('| Option | Type |\n| --- | --- |\n| key | `string` \\| `Buffer` |');
  expect(row.cells?.map((c) => c.markdown)).toEqual(['key', '`string` \\| `Buffer`']);
  expect(row.markdown).toBe('| Option | Type |\n| --- | --- |\n| key | `string` \\| `Buffer` |');
});

// "key" may name an answer's form ("the key points"); here it names the option the question asks about.
it('answers the type of an option named key: a word that may name the form is still searched', async () => {
  const content = await s3rver();
  const a = extractiveAnswer({
    query: "What is the type of s3rver's key option?",
    passages: [{ ref: 1, title: 's3rver', link: '', content }],
    history: [],
  });
  expect(a).toBe('For key, Type: `string` \\| `Buffer`. [1]');
});
