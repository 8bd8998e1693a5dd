import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

/**
 * Subjects compared where tables hold a row of each: the buffer README (bench/content's dev split,
 * as the Markdown its PDF was printed from) has a benchmark table per browser, each with a row for
 * both methods. Each subject was answered by a row of some table, with no word of which browser.
 */
const source = (name: string, title: string) => ({
  ref: 1,
  title,
  link: '',
  content: readFileSync(path.resolve(BENCH_DOCS, '../sources', name), 'utf8'),
});

it('compares two rows of each table that holds both, placed by their section, in one table', () => {
  const a = extractiveAnswer({
    query: 'Compare BrowserBuffer#concat with Uint8Array#concat.',
    passages: [source('buffer-readme.md', 'buffer')],
    history: [],
  });
  expect(a).toMatch(/^\| performance \| Method \| Operations \| Accuracy \| Sampled \| Fastest \|$/m);
  expect(a).toMatch(
    /^\| Chrome 38 \| BrowserBuffer#concat \| 450,532 ops\/sec \|.*\n\| Chrome 38 \| Uint8Array#concat \| 1,368,911 ops\/sec \|/m,
  );
  expect(a).toMatch(/^\| Safari 8 \| BrowserBuffer#concat \| 144,138 ops\/sec \|/m);
});

it('compares rows of a table without header text as "name: what it is"', () => {
  const a = extractiveAnswer({
    query: 'Compare uuid.v3() with uuid.v5().',
    passages: [source('uuid-readme.md', 'uuid')],
    history: [],
  });
  expect(a).toMatch(/uuid\.v3\(\)`\]\(#[^)]*\): Create a version 3 \(namespace w\/ MD5\) UUID\. \[1\]/);
  expect(a).toMatch(/uuid\.v5\(\)`\]\(#[^)]*\): Create a version 5 \(namespace w\/ SHA-1\) UUID\. \[1\]/);
  expect(a).not.toMatch(/^\| +\|/m);
});

// The lead-in is a sentence's start: before the compared subjects' list (or a fence, a table) it is
// a line of its own. Joined to it, "According to your sources: - **a**: …" read as one paragraph.
// The passages are dev documents' chunks (bench/content) as retrieval might hand them over.
it('puts the lead-in on its own line before a list of compared subjects', () => {
  const { passages } = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../fixtures/answers/compared-lead-in.json'), 'utf8'),
  );
  // The fixture's own question compares BrowserBuffer#concat, which none of its passages names: it
  // is "not covered" since a missing technical word weighs more; these two subjects are in them.
  const query = 'Compare the built-in help with the long descriptions.';
  const a = extractiveAnswer({ query, passages, history: [] });
  expect(a).toMatch(/^According to your sources:\n\n- \*\*built-in help\*\*: /);
});

// A definition's later sentence pointing back ("Thus, no files…") is said with its first; when the
// first was the best unit, the answer said that first sentence twice.
it('says a definition once when its first sentence and one pointing back both answer', () => {
  const { passages } = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../fixtures/answers/compared-lead-in.json'), 'utf8'),
  );
  const a = extractiveAnswer({ query: 'Compare the gnats user with the nobody user.', passages, history: [] });
  expect(a.match(/Daemons that need not own any files/g)).toHaveLength(1);
  expect(a).toContain('Thus, no files on a system should be owned by this user or group. [5]');
});
