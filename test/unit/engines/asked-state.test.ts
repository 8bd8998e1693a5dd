import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';

const readme = readFileSync(
  path.resolve(import.meta.dirname, '../../fixtures/real-docs/yargs-parser-readme.md'),
  'utf8',
);
/** The passage the search brings for the question: the setting's section, which never says "enabled". */
const section = readme.slice(readme.indexOf('### combine arrays'), readme.indexOf('### duplicate arguments array'));

/**
 * Session 74's fresh check (yargs-parser's README): "enabled" weighed as a term no source holds,
 * and "Is combine-arrays enabled by default?" was refused, though the section states its default.
 */
it('"Is X enabled by default?" is answered by the default its section states', () => {
  expect(section).not.toMatch(/enabled/i);
  const answer = extractiveAnswer({
    query: 'Is combine-arrays enabled by default in yargs-parser?',
    passages: [{ ref: 1, title: 'yargs-parser-readme', link: '', content: section }],
    history: [],
  });
  expect(answer).toBe('For combine arrays, default: `false`. [1]');
});
