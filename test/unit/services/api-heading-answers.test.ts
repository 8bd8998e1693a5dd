import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { documentUnits } from '../../../src/server/text/units.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * An API reference names each function or option in its heading and says what it does below it.
 * Answers quoted the sentence alone ("Parse an HTTP `Cookie` header string…"), never the name the
 * reader needs to call. READMEs nobody here wrote (cookie, send: bench/content/docs).
 */
describe('a sentence under a heading that names an API', () => {
  const label = (heading: string) =>
    documentUnits(`## ${heading}\n\nIt does a thing.`).find((u) => u.kind === 'sentence')?.termMarkdown;

  it('is said under that name; a topic or a product named in a heading is no API', () => {
    expect(label('cookie.parseCookie(str, options)')).toBe('`cookie.parseCookie(str, options)`');
    expect(label('cookies.set(name [, values [, options]])')).toBe('`cookies.set(name [, values [, options]])`');
    expect(label('httpOnly')).toBe('`httpOnly`');
    expect(label('chalk.level')).toBe('`chalk.level`');
    for (const topic of ['Installation', 'TypeScript', 'Node.js', '.parse() and .parseAsync()', 'Encode and decode'])
      expect(label(topic), topic).toBeUndefined();
  });
});

const doc = (file: string, title: string) => ({
  id: title,
  title,
  text: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, file), 'utf8')),
});

describeAnswersOver(
  'answers from an API reference',
  async () => [
    doc('cookie-readme.html', 'cookie'),
    { id: 'send', title: 'send', text: readFileSync(path.join(BENCH_DOCS, 'send-readme.md'), 'utf8') },
  ],
  (ask) => {
    it('name the function that does what is asked', async () => {
      expect(await ask('How do I parse a Cookie header with the cookie package?')).toContain(
        '`cookie.parseCookie(str, options)`: Parse an HTTP `Cookie` header string',
      );
    });

    it('say two sentences about one option under its name once', async () => {
      const a = await ask('Does send accept range requests by default?');
      expect(a).toContain('`acceptRanges`: Enable or disable accepting ranged requests, defaults to true.');
      expect(a.match(/`acceptRanges`:/g)).toHaveLength(1);
    });
  },
);
