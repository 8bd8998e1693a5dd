import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 84's fresh checks: flock(1) (groff HTML), fast-glob's and chokidar's READMEs printed by
 * Chromium, cosmiconfig's README and tree's, questions written before any answer was read.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const flock = () => extractHtml(readFileSync(path.join(FIXTURES, 'flock.html'), 'utf8')).markdown;
const fastGlob = async () =>
  (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'fast-glob-readme.pdf')))).text;
const docs = async () => [
  { id: 'flock', title: 'FLOCK', text: flock() },
  { id: 'fast-glob', title: 'fast-glob', text: await fastGlob() },
  {
    id: 'chokidar',
    title: 'chokidar',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'chokidar-readme.pdf')))).text,
  },
  {
    id: 'tree',
    title: 'tree-readme',
    text: plainTextToMarkdown(readFileSync(path.join(FIXTURES, 'tree-readme.txt'), 'utf8')),
  },
  {
    id: 'body-parser',
    title: 'body-parser',
    text: (await extractDocument('docx', readFileSync(path.join(FIXTURES, 'body-parser-readme.docx')))).text,
  },
  { id: 'prh', title: 'prh', text: extractHtml(readFileSync(path.join(FIXTURES, 'prh-readme.html'), 'utf8')).markdown },
  { id: 'cosmiconfig', title: 'cosmiconfig', text: readFileSync(path.join(FIXTURES, 'cosmiconfig-readme.md'), 'utf8') },
];

it("a PDF table whose columns are centred is one table across its page break (fast-glob's node-glob options)", async () => {
  const md = await fastGlob();
  expect(md).toContain('| node-glob | fast-glob |\n| --- | --- |\n| `cwd` | `cwd` |');
  for (const row of [
    '| `nomount` | – |',
    '| `nodir` | `onlyFiles` |',
    '| `follow` | `followSymbolicLinks` |',
    '| `absolute` | `absolute` |',
  ])
    expect(md).toContain(row);
  expect(md).not.toMatch(/^\s*nodir\s+onlyFiles\s*$/m);
});

describeAnswersOver('fresh documents, session 84', docs, (ask) => {
  it('a sentence spaced "e. g." as groff sets it is said whole', async () => {
    const answer = await ask('On which file systems may flock always fail?');
    expect(answer).toContain('Some file systems (e. g. NFS and CIFS) have a limited implementation');
  });

  it('"Who wrote X?" is answered by its AUTHORS section', async () => {
    const answer = await ask('Who wrote flock?');
    expect(answer).toContain('H. Peter Anvin');
    expect(answer).not.toContain('exclusive');
  });

  it("a centred table's row answers for its cell", async () => {
    const answer = await ask("Which fast-glob option corresponds to node-glob's nodir option?");
    expect(answer).toContain('onlyFiles');
    expect(answer).not.toMatch(/`nodir\s{2,}onlyFiles`/);
  });

  it('"What does the name X mean?" asks what X means: the words "name" and "mean" ask nothing more', async () => {
    const answer = await ask('What does the name chokidar mean?');
    expect(answer).toContain("meaning 'watchman, gatekeeper'");
  });

  it('a product named X.js is held by a source calling it X ("Tested in Node 14+")', async () => {
    const answer = await ask('Which Node.js version is cosmiconfig tested in?');
    expect(answer).toContain('Tested in Node 14+.');
  });

  it('an item under a bold name ("Francesc Rocher" over what he added) is said under that name', async () => {
    const answer = await ask('Who added HTML output (-H) to tree?');
    expect(answer).toContain('**Francesc Rocher**: Added HTML output (-H).');
  });

  it('"Which modules does it suggest?" is answered by the list its items are of, not by one item', async () => {
    const answer = await ask('body-parser does not handle multipart bodies. Which modules does it suggest instead?');
    for (const name of ['busboy', 'multiparty', 'formidable', 'multer']) expect(answer).toContain(`[${name}]`);
  });

  it('a Japanese question naming a version written against Japanese text ("v3.x系") is answered', async () => {
    const answer = await ask('prh の v3.x 系まではどのオプションがデフォルトの振る舞いでしたか？');
    // Said under its section's flag: "this option" is `--stdout`.
    expect(answer).toContain('`--stdout`: v3.x系まではこのオプションがデフォルトの振る舞いでした。');
  });

  it('"どうすればいいですか" asks how: its words are no terms a source must hold', async () => {
    const answer = await ask('prh で特定の段落を校正させないようにするにはどうすればいいですか？');
    expect(answer).toContain('prh:disable');
  });
});

const solarlunar = async () => [
  { id: 'solarlunar', title: 'solarlunar', text: readFileSync(path.join(FIXTURES, 'solarlunar-readme.md'), 'utf8') },
];

describeAnswersOver('fresh documents, session 84: solarlunar', solarlunar, (ask) => {
  it('a bold caption leading into a list ("**Parameters:**") is no name its items are said under', async () => {
    const answer = await ask('Which years does solarlunar support?');
    expect(answer).toContain('`year` (Number): Solar year (1900-2100).');
    expect(answer).not.toContain('Parameters');
  });
});
