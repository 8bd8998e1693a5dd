import fc from 'fast-check';
import { expect, it } from 'vitest';
import { chunkText } from '../../../src/server/engines/retrieval/chunker.js';

/**
 * A man page's option is a term paragraph (`**-r --recursive**`) and the paragraphs describing it.
 * A chunk that ended on the term left its description in the next chunk, where the answer quoted
 * "Travel the directory structure recursively." without saying which option it describes.
 */
it('keeps each term paragraph in the chunk of the paragraph it names, wherever a chunk ends', () => {
  const entry = fc.record({
    flag: fc.stringMatching(/^[a-z]{1,8}$/),
    words: fc.integer({ min: 3, max: 90 }),
  });
  fc.assert(
    fc.property(fc.array(entry, { minLength: 2, maxLength: 30 }), (entries) => {
      const md = [
        '## OPTIONS',
        ...entries.map((e, i) => `**-${e.flag}${i} --long-${i}**\n\nOption ${i} ${'does something '.repeat(e.words)}.`),
      ].join('\n\n');
      const chunks = chunkText(md).map((c) => c.content);
      entries.forEach((e, i) => {
        const term = `**-${e.flag}${i} --long-${i}**`;
        const holding = chunks.filter((c) => c.includes(term));
        expect(holding).toHaveLength(1);
        expect(holding[0]).toContain(`Option ${i} does`);
      });
    }),
    { numRuns: 60 },
  );
});

/**
 * logrotate's `-m` leads into a list ("…the following arguments:") and goes on after it ("The
 * default mail command is /usr/bin/mail."). An excerpt opening after the list names the term again.
 */
it('an excerpt opening after the list a description leads into opens with its term', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 5 }), (before, items) => {
      const md = [
        '## OPTIONS',
        `**-a**\n\nOption a ${'does something '.repeat(before)}.`,
        '**-m**, **--mail** _command_',
        'Tells it which command to use. The command should accept the following arguments:',
        Array.from({ length: items }, (_, i) => `${i + 1}. argument ${i} ${'word '.repeat(8)}`).join('\n'),
        'The default mail command is _/usr/bin/mail_.',
      ].join('\n\n');
      const holding = chunkText(md).filter((c) => c.content.includes('The default mail command'));
      expect(holding).toHaveLength(1);
      expect(holding[0].content).toContain('**-m**, **--mail** _command_');
    }),
    { numRuns: 60 },
  );
});
