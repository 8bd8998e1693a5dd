import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 81's fresh check: colorette's README (Markdown), Debian's postgresql-common README.Debian
 * (plain text), questions written before any answer was read; and the zlib FAQ of bench/content's
 * dev split, whose answers open "Yes." under several questions.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f), 'utf8');
const docs = async () => [
  { id: 'colorette', title: 'colorette', text: read('colorette-readme.md') },
  {
    id: 'pg',
    title: 'postgresql-common-readme-debian',
    text: plainTextToMarkdown(read('postgresql-common-readme-debian.txt')),
  },
  {
    id: 'zlib',
    title: 'zlib-faq',
    text: plainTextToMarkdown(readFileSync(path.join(BENCH_DOCS, 'zlib-faq.txt'), 'utf8')),
  },
];

describeAnswersOver('fresh documents: term lists in plain text, sentences opening in lower case', docs, (ask) => {
  // "pg_dropcluster    - Completely remove a cluster." was one paragraph with the five other
  // commands, its wrapped line "restart)." quoted as code.
  it('a plain-text run of "name - what it does" lines is a list of terms', async () => {
    expect(await ask('How do I completely remove a PostgreSQL cluster?')).toBe(
      '**pg_dropcluster**: Completely remove a cluster. [1]',
    );
    expect(await ask('Which command migrates a cluster from one major version to another?')).toBe(
      '**pg_upgradecluster**: Migrate a cluster from one major version to another one. [1]',
    );
  });

  // "… will automatically be enabled. postgresql-common makes use of the 'snakeoil' SSL
  // certificate…" was one sentence, outranked by a shorter one about root.crt.
  it('a sentence opening on a name in lower case is a sentence of its own', async () => {
    expect(await ask('Which SSL certificate does postgresql-common use?')).toMatch(
      /^According to your sources: postgresql-common makes use of the 'snakeoil' SSL certificate/,
    );
  });

  // "disable" before "colors" was read as a kind of colour colorette never names: refused.
  it("the question's own verb is no unknown kind of what it acts on", async () => {
    expect(await ask('How do I disable colors with an environment variable in colorette?')).toMatch(/`NO_COLOR=`/);
  });

  // Each "Yes." of the FAQ was one unit, kept under the first question only.
  it('a sentence said under several headings is said under each', async () => {
    expect(await ask('Is zlib thread-safe?')).toMatch(/^According to your sources: Yes\. However any library routines/);
  });
});

/** nginx(8), an mdoc page as groff renders it (session 81's second fresh batch). */
const nginx = async () => [{ id: 'nginx', title: 'nginx', text: extractHtml(read('nginx.html')).markdown }];

describeAnswersOver('fresh documents: an mdoc man page', nginx, (ask) => {
  // Its sections were bold paragraphs, so "**DEBUGGING LOG**" was a term over the rest of the page,
  // and each signal a sentence of its own: SIGUSR1's "Reopen log files." answered nothing.
  it('section names in bold capitals are headings; signals at the margin are terms', async () => {
    expect(await ask('Which signal makes nginx reopen log files?')).toMatch(
      /^\*\*SIGUSR1\*\*: Reopen log files\. \[1\]/,
    );
    expect(await ask('What does SIGHUP do to nginx?')).toMatch(/^\*\*SIGHUP\*\*: Reload configuration/);
  });

  // "./configure --with-debug ..." (an argument list left open, run from its directory) read as no command.
  it('a command set in under a sentence ending in a colon is quoted as code', async () => {
    expect(await ask('How do I enable a debugging log in nginx?')).toContain('```\n./configure --with-debug ...\n```');
  });
});

/** slugify's README (session 81's second fresh batch). */
const slugify = async () => [{ id: 'slugify', title: 'slugify', text: read('slugify-readme.md') }];

describeAnswersOver('fresh documents: results and options said in code comments', slugify, (ask) => {
  // "return" was a key term no unit held: the call's line, with its result as a comment, was refused.
  it('"What does f(…) return?" is answered by the line writing that call', async () => {
    expect(await ask("What does slugify('unicode ♥ is ☢') return?")).toContain(
      "slugify('unicode ♥ is ☢') // unicode-love-is",
    );
  });

  // "output" before "lower" was read as an unknown kind of "lower", which a line of code wrote after
  // another name: the options line "lower: false, // convert to lower case" was refused.
  it('names one after another in code are no modified word', async () => {
    expect(await ask('How do I make slugify output lower case?')).toContain('convert to lower case');
  });
});
