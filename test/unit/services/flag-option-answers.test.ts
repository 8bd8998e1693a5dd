import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A man page's entry for a flag (`-s, --signal=SIGNAL`) is an option whether or not its text says
 * "option": "Which timeout option chooses the signal…" had been "not covered" for want of the word.
 * A description written over two lines of groff ("…sent on timeout;" then "SIGNAL may be…") reads
 * on, not as ";." (timeout's and gzip's man pages: bench/content/docs, nobody here wrote them).
 */
const man = (file: string, title: string) => ({
  id: title,
  title,
  text: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, file), 'utf8')),
});

describeAnswersOver(
  'a question asking which option, over man pages',
  async () => [man('timeout-man.html', 'TIMEOUT'), man('gzip-man.html', 'gzip')],
  (ask) => {
    it('is answered by the flag whose entry says it', async () => {
      const a = await ask('Which timeout option chooses the signal sent on timeout?');
      expect(a).toContain('**--signal**');
      expect(a).toContain('specify the signal to be sent on timeout; SIGNAL may be');
      expect(a).not.toContain(';.');
    });
  },
);
