import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { documentUnits } from '../../../src/server/text/units.js';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 83's fresh check: GNU nano's README (plain text, its sections named at the margin over
 * indented text), wget(1) (groff HTML, an option's short and long names each on a line of its own),
 * cron-parser's README (tables keyed by a letter) and filesize's, questions written before any
 * answer was read.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f), 'utf8');
const nano = () => plainTextToMarkdown(read('nano-readme.txt'));
const wget = () => extractHtml(read('wget.html')).markdown;
const docs = async () => [
  { id: 'nano', title: 'nano-readme', text: nano() },
  { id: 'wget', title: 'WGET', text: wget() },
  { id: 'cron-parser', title: 'cron-parser', text: read('cron-parser-readme.md') },
  { id: 'filesize', title: 'filesize', text: read('filesize-readme.md') },
  { id: 'grep', title: 'GREP', text: extractHtml(read('grep.html')).markdown },
  { id: 'grep-readme', title: 'grep-readme', text: plainTextToMarkdown(read('grep-readme.txt')) },
  { id: 'address-parse', title: 'CN Address Parse', text: read('address-parse-readme.md') },
  { id: 'pretty-bytes', title: 'pretty-bytes', text: read('pretty-bytes-readme.md') },
  { id: 'solarlunar', title: 'solarlunar', text: read('solarlunar-readme.md') },
  { id: 'sed-readme', title: 'sed-readme', text: plainTextToMarkdown(read('sed-readme.txt')) },
  { id: 'sed', title: 'SED', text: extractHtml(read('sed.html')).markdown },
  {
    id: 'morgan',
    title: 'morgan',
    text: (await extractDocument('pdf', readFileSync(path.join(FIXTURES, 'morgan-readme.pdf')))).text,
  },
];

it("a plain-text README's sections named at its margin over indented text are headings, its drawn box kept as drawn", () => {
  const md = nano();
  for (const name of ['Purpose', 'Appearance', 'Origin', 'License', 'How to compile and install nano', 'Web Page'])
    expect(md).toContain(`\n## ${name}\n`);
  expect(md).toContain('Nano is a small and simple text editor for use on the terminal.');
  // The screen drawn in text is one block as drawn, not a heading and paragraphs of bars.
  expect(md).toMatch(/```\n\| {2}GNU nano 7\.2 {18}filename/);
  expect(md).not.toMatch(/^#+ \|/m);
});

it("an option's names each on their own line (groff's -c over --continue) are one term over its description", () => {
  const units = documentUnits(wget());
  const c = units.find((u) => u.kind === 'definition' && u.term?.startsWith('-c'));
  expect(c?.term).toBe('-c, --continue');
  expect(c?.description).toMatch(/^Continue getting a partially-downloaded file\./);
  const t = units.find((u) => u.kind === 'definition' && u.term?.startsWith('-t'));
  expect(t?.term).toBe('-t number, --tries=number');
  // Or on two lines of one paragraph (`-T seconds<br>--timeout=seconds`).
  const T = units.find((u) => u.kind === 'definition' && u.term?.startsWith('-T'));
  expect(T?.term).toBe('-T seconds, --timeout=seconds');
  expect(T?.termMarkdown).toBe('**-T seconds, --timeout=**_seconds_');
});

it("groff's subsection name set in one bold paragraph with the first option under it is a heading over that option", () => {
  const md = extractHtml(read('grep.html')).markdown;
  expect(md).toContain('### Matching Control\n\n**\\-e** _PATTERNS_, **\\--regexp=**_PATTERNS_\n');
  expect(md).toContain('### General Output Control\n\n**\\-c**, **\\--count**\n');
});

describeAnswersOver('fresh documents: margin headings, option names on two lines, letters named', docs, (ask) => {
  // "Bug Reports" and "Web Page" were lines of text: the answer was the heading alone ("Bug Reports.").
  it("a plain-text section's text answers under the name at its margin", async () => {
    expect(await ask('Where do I report a bug in nano?')).toContain('https://savannah.gnu.org/bugs/?group=nano');
  });

  // An address alone was no unit: "Web Page" said nothing.
  it('an address that is all its section says answers for that section', async () => {
    expect(await ask("What is nano's web page?")).toContain('https://nano-editor.org/');
  });

  // A letter alone was no term: the rows of `*` and `?` answered, then "not covered".
  it('a letter the question names alone is the table row keyed by it', async () => {
    expect(await ask('What does the H special character do?')).toMatch(
      /^\| Character \| Description \| Example \|\n.*\n\| `H` \| Randomized value \|/,
    );
    expect(await ask('What does the L character mean in a cron expression?')).toMatch(
      /\n\| `L` \| Last day of month\/week \|/,
    );
  });

  // The example line holding "-c" answered, not what the option does.
  it("a question asking only what an option does is answered by its description's opening", async () => {
    expect(await ask("What does wget's -c option do?")).toMatch(
      /^\*\*-c\*\*, \*\*--continue\*\*: Continue getting a partially-downloaded file\./,
    );
  });

  // The passages holding the source's name ("grep") in their text were put before the one holding
  // the flag asked: -w's definition was never read, and the answer was "not covered".
  it("a flag the question names keeps its passage among those read, past the source's name", async () => {
    expect(await ask('What does the -w option of grep do?')).toMatch(
      /^\*\*-w\*\*, \*\*--word-regexp\*\*: Select only those lines/,
    );
    expect(await ask("What does grep's -v option do?")).toMatch(
      /^\*\*-v\*\*, \*\*--invert-match\*\*: Invert the sense of matching/,
    );
  });

  // The passage of --no-ignore-case, which mentions -i and says "This is the default.", was read
  // for the two-part question, -i's own entry not.
  it("the passage holding an option's entry is found before one mentioning it", async () => {
    expect(await ask("What does grep's -i option do, and what is pretty-bytes' default for bits?")).toMatch(
      /^\*\*-i\*\*, \*\*--ignore-case\*\*: Ignore case distinctions/,
    );
  });

  // `--no-ignore-case` ("Do not ignore case distinctions…") came first.
  it('an option turning off what the question asks for is no answer, unless the question asks to turn it off', async () => {
    expect(await ask('How do I make grep ignore case?')).toMatch(
      /^\*\*-i\*\*, \*\*--ignore-case\*\*: Ignore case[^\n]*\[\d\]$/,
    );
    expect(await ask('How do I make grep not ignore case?')).toMatch(/^\*\*--no-ignore-case\*\*: Do not ignore case/);
  });

  // "GNU Sed website: https://…" was read as a heading over the README's text: its sentences answered.
  it("a plain-text line naming a value is no heading: sed's website", async () => {
    expect(await ask('What is the GNU sed website?')).toMatch(
      /^GNU Sed website: <https:\/\/www\.gnu\.org\/software\/sed\/>/,
    );
  });

  // The heading "immediate" asked all but "option", and its opening never writes "immediate".
  it('a section named by the option the question names answers it, though its text never repeats the name', async () => {
    expect(await ask('What does the immediate option of morgan do?')).toMatch(
      /^According to your sources: Write log line on request instead of response\./,
    );
  });

  // A lower-case letter alone was no term; then, read without its case, `D` answered for `d`.
  it("a letter the question names is the term written so, in its case: sed's d and D", async () => {
    expect(await ask('What does the sed command d do?')).toMatch(
      /^\*\*d\*\*: Delete pattern space\. Start next cycle\./,
    );
    expect(await ask('What does the sed command D do?')).toMatch(/^\*\*D\*\*: If pattern space contains no newline/);
  });

  // "The function is expected to return … or undefined / null to skip logging." answered: it says
  // "skip", the skip option's own section says its default.
  it("an option's section whose opening says what else is asked answers it: morgan's skip default", async () => {
    expect(await ask('What does the skip option of morgan default to?')).toMatch(
      /^According to your sources: Function to determine if logging is skipped, defaults to `?false`?\./,
    );
  });

  // 哪里 ("where") was a term no source holds, so the question was not covered.
  it('a Chinese question word asking where is no term a source must hold', async () => {
    expect(await ask('address-parse 打包后的单文件在哪里？')).toContain('已打包成单文件`dist/bundle.js`');
  });

  // The choice was read only at the question's end: "base-2", which the README never writes, refused it.
  it('a choice of two words followed by a few more is a choice: the source need state only one', async () => {
    expect(await ask('Does pretty-bytes use base-10 or base-2 by default?')).toContain('Note that it uses base-10');
  });

  // "the list of" made it a list question: every paragraph of KNOWN BUGS was said as an item, the address none.
  it('"Where is the list of …" asks where it is: the sentence saying so, with the address it leads into', async () => {
    expect(await ask('Where is the list of outstanding grep bugs?')).toMatch(
      /^According to your sources: A list of outstanding and resolved bugs can be found at: \[\d\]\n\n```\nhttps:\/\/debbugs\.gnu\.org\/cgi\/pkgreport\.cgi\?package=grep\n```/,
    );
  });

  // "tool" is a kind of thing the README never names so: the question was not covered.
  it('the kind of thing asked ("which build tool") need not be written by the source', async () => {
    expect(await ask('Which build tool does solarlunar use?')).toContain(
      '**Rollup 4**: Optimized builds with tree-shaking.',
    );
  });

  it("the option's long name is the short one's: a question naming -t is answered by --tries' description", async () => {
    expect(await ask('How many times does wget retry by default?')).toContain('The default is to retry 20 times');
  });
});
