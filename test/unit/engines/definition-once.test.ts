import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';

/**
 * Two sentences of one option's description that both answer were said as two lines, each under
 * the option's whole term ("**-P** _max-procs_, **--max-procs**=_max-procs_: …" twice). The term
 * is said once, the sentences after it in the page's order. xargs' man page (bench/content's dev split).
 */
it('says two sentences of one definition under its term once', () => {
  const html = readFileSync(path.join(import.meta.dirname, '../../../bench/content/docs/xargs-man.html'), 'utf8');
  const passages = [{ ref: 1, title: 'XARGS', link: '', content: htmlToMarkdown(html) }];
  const a = extractiveAnswer({
    query: 'How many processes does xargs run at a time by default?',
    passages,
    history: [],
  });
  expect(a.match(/--max-procs/g)).toHaveLength(1);
  expect(a).toMatch(
    /the default is 1\. If _max-procs_ is 0, \*\*xargs\*\* will run as many processes as possible at a time\. \[1\]$/,
  );
});
