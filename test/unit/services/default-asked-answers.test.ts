import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { inDocumentWords } from '../../../src/server/text/verbs.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * "When none is set" asks for the default. Its "none" had matched sameSite's `'none'` value, and the
 * answer was about SameSite; documents write "the default" (cookie's README, nobody here wrote it).
 */
it('says a question asking what happens when nothing is given as asking for the default', () => {
  expect(inDocumentWords("What is a cookie's priority when none is set?")).toBe(
    "What is a cookie's priority by default?",
  );
  expect(inDocumentWords('Which signal is sent if no signal is specified?')).toBe(
    'Which signal is sent signal by default?',
  );
  expect(inDocumentWords('What does it use when it is not set?')).toBe('What does it use by default?');
  expect(inDocumentWords('What is used if omitted?')).toBe('What is used by default?');
  // "None" that is not the subject of a missing value stays.
  expect(inDocumentWords("What does sameSite 'none' do?")).toBe("What does sameSite 'none' do?");
});

it('reads "the cookie package" as naming the source, not as asking about packages', () => {
  // A source rarely calls itself a package: the word had weighed as a key term it lacked, and an
  // answer on PostgreSQL (ts_rank brings other passages) fell below the coverage threshold.
  expect(inDocumentWords('How do I parse a Cookie header with the cookie package?')).toBe(
    'How do I parse a Cookie header with the cookie?',
  );
  expect(inDocumentWords('Which packages depend on chalk?')).toBe('Which packages depend on chalk?');
});

describeAnswersOver(
  'a question asking for a default in other words',
  async () => [
    {
      id: 'cookie',
      title: 'cookie',
      text: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, 'cookie-readme.html'), 'utf8')),
    },
  ],
  (ask) => {
    it('is answered by what the source says is the default', async () => {
      const a = await ask("What is a cookie's priority when none is set?");
      expect(a).toContain(
        "`'medium'` will set the `Priority` attribute to `Medium`, the default priority when not set.",
      );
      expect(a).not.toContain('SameSite');
    });
  },
);
