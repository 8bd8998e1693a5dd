import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 86's fresh check: rimraf's README printed by Chromium (mostly lists, options as code
 * spans, a help text in columns) and GnuPG's KEYSERVER (plain text defining fields as
 * "<count> = …"), with cac's printed README; questions written before any answer was read.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f));
const docs = async () => [
  { id: 'rimraf', title: 'rimraf-readme', text: (await extractDocument('pdf', read('rimraf-readme.pdf'))).text },
  {
    id: 'keyserver',
    title: 'gnupg-keyserver',
    text: plainTextToMarkdown(read('gnupg-keyserver.txt').toString('utf8')),
  },
  { id: 'cac', title: 'cac-readme', text: (await extractDocument('pdf', read('cac-readme.pdf'))).text },
];

it("reads rimraf's printed lists as lists, its options' names as code spans", async () => {
  const { text } = await extractDocument('pdf', read('rimraf-readme.pdf'));
  expect(text).toContain('### v5 to v6\n\n- Require node `20` or `>=22`\n- Add `--version` to CLI');
  expect(text).toContain('- `maxRetries`: Windows and Native only.');
  expect(text).toContain('- `filter` Method that returns a boolean indicating whether that path should be deleted.');
});

describeAnswersOver('session 86: fresh documents', docs, (ask) => {
  it('answers an option of a help text set in columns from its own line', async () => {
    const answer = await ask('What does the -i option of the rimraf CLI do?');
    expect(answer).toContain('Ask for confirmation before deleting anything');
    expect(answer).not.toContain('--no-verbose');
  });

  it("answers an option described after its code span, and a version from its list's item", async () => {
    expect(await ask("What does rimraf's filter option do?")).toContain(
      '`filter` Method that returns a boolean indicating whether that path should be deleted.',
    );
    expect(await ask('Which Node versions does rimraf v6 require?')).toContain('Require node `20` or `>=22`');
  });

  it('answers a field of a listing from its "<name> = …" definition', async () => {
    expect(await ask('What does the count field of the info line mean in keyserver colon listings?')).toContain(
      'the number of keys returned in this response',
    );
    expect(await ask('How is the uid string escaped in keyserver listings?')).toContain('HTTP %-escaping');
    expect(await ask('What does the r flag mean in a keyserver listing?')).toContain('**r**: revoked.');
  });

  it('a flag the question names is asked of units holding it, unless it is only an example', async () => {
    // cac's `config.default` item says "Default value for the option"; the --type option's default is in its example.
    expect(await ask("What is the default value of the --type option in cac's help example?")).toContain(
      "cli.option('--type [type]', 'Choose a project type', {",
    );
  });
});

const printedAlone = async () => [
  { id: 'rimraf', title: 'rimraf-readme', text: (await extractDocument('pdf', read('rimraf-readme.pdf'))).text },
  {
    id: 'keyserver',
    title: 'gnupg-keyserver',
    text: plainTextToMarkdown(read('gnupg-keyserver.txt').toString('utf8')),
  },
];

describeAnswersOver('session 86: a help text read as definitions', printedAlone, (ask) => {
  it("says an option once: not again as the help text's line its definition was read from", async () => {
    const answer = await ask('What does the -i option of the rimraf CLI do?');
    expect(answer.match(/Ask for confirmation before deleting anything/g)).toHaveLength(1);
  });
});
