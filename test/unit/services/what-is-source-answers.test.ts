import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A question that only names a source ("What is gzip?", "Winston") asks what it is. The search
 * brought the chunks naming it most (gzip's "-L --license: Display the gzip license", Commander's
 * `.command(...)` lines) and the answer quoted those; the source's opening says what it is.
 * Real documents nobody here wrote (bench/content/docs, dev split).
 */
const docs = async () => [
  ...['gzip-man.html', 'sort-man.html'].map((f) => ({
    id: f.replace(/\W/g, '_'),
    title: f.replace(/-man\.html$/, ''),
    text: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, f), 'utf8')),
  })),
  ...['commander-readme.md', 'debug-readme.md', 'http-errors-readme.md'].map((f) => {
    const text = readFileSync(path.join(BENCH_DOCS, f), 'utf8');
    return { id: f.replace(/\W/g, '_'), title: /^# (.+)$/m.exec(text)![1], text };
  }),
];

describeAnswersOver('a question that only names a source', docs, (ask) => {
  it.each([
    ['What is gzip?', /gzip, gunzip, zcat - compress or expand files/],
    ['gzip', /gzip, gunzip, zcat - compress or expand files/],
    ['What is Commander?', /The complete solution for \[node\.js\]\(http:\/\/nodejs\.org\) command-line interfaces/],
    ['What is debug?', /A tiny JavaScript debugging utility modelled after Node\.js core's debugging technique/],
  ])('%s: its opening', async (question, fact) => {
    const a = await ask(question);
    expect(a).toMatch(fact);
    expect(a).not.toMatch(/license|\.command\(/i);
  });

  it('a question asking more than the name is answered as before, from the units that hold it', async () => {
    expect(await ask('What does the -k option of gzip do?')).toMatch(/Keep \(don.t delete\) input files/);
  });
});
