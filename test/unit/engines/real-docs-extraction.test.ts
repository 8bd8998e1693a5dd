import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertFile } from '../../../src/server/engines/extract/convert.js';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { extractHtml, htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { shapeHtml } from '../../../src/server/engines/extract/shape-html.js';
import { repairHref } from '../../../src/server/engines/extract/docx-options.js';
import { joinCodeAcrossPages } from '../../../src/server/engines/extract/pdf.js';
import { documentUnits } from '../../../src/server/text/units.js';

// Documents nobody on the project wrote (sources in test/fixtures/real-docs/make-fixtures.mjs).
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

describe('HTML structure', () => {
  it('fences a <pre> without <code>, verbatim (no Markdown escapes in it)', () => {
    const md = htmlToMarkdown(
      '<p>Start it:</p><pre>$ node app.js | pino-pretty *.log\n$ echo `date`</pre><p>Done.</p>',
    );
    expect(md).toContain('```\n$ node app.js | pino-pretty *.log\n$ echo `date`\n```');
  });

  it('keeps every line of a <pre> made of several code runs (a DOCX code paragraph per line)', () => {
    const md = htmlToMarkdown('<pre><code>const a = 1</code>\n<code>const b = 2</code></pre>');
    expect(md).toBe('```\nconst a = 1\nconst b = 2\n```');
  });

  it('writes the man page of ls (groff layout tables) as paragraphs, never as GFM tables', () => {
    const { markdown } = extractHtml(fixture('ls.html').toString('utf8'));
    expect(markdown.split('\n').filter((l) => l.startsWith('|'))).toEqual([]);
    expect(markdown).toContain('**\\-C**\n\nlist entries by columns');
    expect(markdown).toContain('**\\-l**\n\nuse a long listing format');
    const shaped = shapeHtml(fixture('ls.html').toString('utf8'), '', { format: 'text', readability: 'off' });
    if (!shaped.ok) throw new Error(shaped.message);
    expect(shaped.page.content).toContain('-C\nlist entries by columns');
  });

  // "**-z**, **--zero**: **The following five options are useful only when verifying checksums:**" was -z's description.
  it("sets a groff subheading bolded with the next term apart from it, as the options' lead-in", () => {
    const { markdown } = extractHtml(fixture('sha256sum.html').toString('utf8'));
    expect(markdown).toContain(
      'The following five options are useful only when verifying checksums:\n\n**\\--ignore-missing**\n\ndon’t fail',
    );
  });

  it("writes crontab(5)'s fields, laid out by groff's tab stops over a rule of dashes, as a table with its header", () => {
    const { markdown } = extractHtml(fixture('crontab.html').toString('utf8'));
    expect(markdown).toContain(
      '| field | allowed values |\n| --- | --- |\n| minute | 0-59 |\n| hour | 0-23 |\n| day of month | 0-31 |',
    );
    const hour = documentUnits(markdown).find((u) => u.kind === 'row' && u.rowKey === 'hour');
    expect(hour?.header?.map((h) => h.text)).toEqual(['field', 'allowed values']);
  });

  it('reads a layout table as a data table only when its header is over a rule in every column', () => {
    const row = (...cells: string[]) =>
      `<tr><td width="10%"></td>${cells.map((c) => `<td><p>${c}</p></td>`).join('')}</tr>`;
    const ruled = htmlToMarkdown(`<table>${row('name', 'value')}${row('----', '-----')}${row('a', '1')}</table>`);
    expect(ruled).toMatch(/\| name \| value \|\n\| -+ \| -+ \|\n\| a +\| 1 +\|/);
    const unruled = htmlToMarkdown(`<table>${row('name', 'value')}${row('----', 'x')}${row('a', '1')}</table>`);
    expect(unruled).not.toContain('|');
  });

  it('writes a groff bullet table as a list, and leaves a data table without header cells a table', () => {
    const row = (text: string) =>
      `<tr valign="top"><td width="11%"></td><td width="1%"><p>&bull;</p></td><td width="10%"></td><td width="78%"><p>${text}</p></td></tr>`;
    const md = htmlToMarkdown(
      `<table width="100%" border="0">${row('open files inherited by the shell')}${row('current traps set by <b>trap</b>')}</table>` +
        '<table><tr><td>Plan</td><td>Price</td></tr><tr><td>Team</td><td>$12</td></tr></table>',
    );
    expect(md).toContain('-   open files inherited by the shell\n\n-   current traps set by **trap**');
    expect(md).toContain('| Plan | Price |\n| --- | --- |\n| Team | $12 |');
  });
});

describe('a PDF printed by Chromium (pino docs/lts.md)', () => {
  it("reads a Japanese README printed by Chromium: prose at the body's size, code by its face's name, 言 not ⾔", async () => {
    const { text } = await extractDocument('pdf', fixture('no-dropping-the-ra-readme.pdf'));
    expect(text).toContain('ら抜き言葉を検出するtextlintルールです。');
    expect(text).not.toMatch(/[\u2f00-\u2fdf]/u);
    expect(text).toContain('## License\n\nMIT');
    expect(text).toContain('```\nnpm install textlint-rule-no-dropping-the-ra\n```');
    expect(text).toMatch(/```\n\{\n {2}"rules": \{\n {4}"no-dropping-the-ra": true/);
  });

  // tiny-pinyin's Chinese README (MIT, from its npm package) printed by Chromium: its font maps 页 and
  // 见 to radicals, a bold sentence was read as a heading, and lines of prose opening with a code span
  // (`pinyin.isSupported()`为`true`：) were fenced as code.
  it('reads a Chinese README printed by Chromium: ideographs, not radicals; prose with code spans stays prose', async () => {
    const { text } = await extractDocument('pdf', fixture('tiny-pinyin-readme.pdf'));
    expect(text).toContain('注意在浏览器中使用时页面的charset 必须为utf-8 ，见issue#21');
    expect(text).not.toMatch(/[\u2e80-\u2eff\u2f00-\u2fdf]/u);
    expect(text).toContain('\n\n注意：不支持多音字；`ie/edge` 测试未通过。\n\n');
    expect(text).toContain('即 `pinyin.isSupported()`为`true`：\n\n```\nnpm i --save full-icu\n```');
    expect(text).toContain(
      '通过`node --icu-data-dir=node_modules/full-icu test.js`即可使`node.js`支持全语言，正确把汉字转为拼音。',
    );
  });

  it('keeps the four columns of the schedule table, its header included', async () => {
    const { text } = await extractDocument('pdf', fixture('pino-lts.pdf'));
    expect(text).toContain(
      '| Version | Release Date | End Of LTS Date | Node.js |\n| --- | --- | --- | --- |\n| 9.x | 2024-04-26 | TBD | 18, 20, 22 |\n| 8.x | 2022-06-01 | 2024-10-26 | 14, 16, 18, 20 |',
    );
    // A cell whose text runs up to the next column (no gap, one word space) is placed by the rows around it.
    expect(text).toContain('| OS | YAML Workflow Label | Node.js |');
    expect(text).toContain('| Windows | `windows-latest` | 18, 20, 22 |');
    expect(text).toContain('## Supported Node.js versions');
  });

  it('keeps a line that is only an address in the body, and drops the print footer', async () => {
    const { text } = await extractDocument('pdf', fixture('pino-readme.pdf'));
    expect(text).toMatch(/^https:\/\/github\.com\/mcollina$/m);
    expect(text).not.toContain('blob/main/README.md');
  });

  // "Actions Status: test", the title's badge wrapped under it, was a heading over every section.
  it("reads no heading from a badge wrapped under the title at the title's size", async () => {
    const { text } = await extractDocument('pdf', fixture('no-double-negative-ja-readme.pdf'));
    expect(text).not.toContain('Actions Status');
    expect(text).toMatch(/^#+ Tests$/m);
  });

  // "Who maintains strip-ansi?" was answered "12/6/26, 8:13 PM strip-ansi.": on one page no line recurs.
  it("drops a one-page document's print header, its date before its title", async () => {
    const { text } = await extractDocument('pdf', fixture('strip-ansi-readme.pdf'));
    expect(text).not.toMatch(/\d{1,2}:\d{2}\s*[AP]M/);
    expect(text).toContain('Josh Junon');
  });
});

describe('a PDF printed by Chromium: fonts tell code and headings apart', () => {
  // busboy's third example opens with the lines the first one did; the page's paragraph dedupe took
  // them, with the opening fence, for a notice printed twice, and the example read as prose.
  it('keeps the opening of a code block whose first lines an earlier block has too (busboy)', async () => {
    const { text } = await extractDocument('pdf', fixture('busboy-readme.pdf'));
    expect(text).toContain(
      "Parsing (urlencoded) with default options:\n\n```\nvar http = require('http'),\n    inspect = require('util').inspect;",
    );
    expect(text.split('\n').filter((l) => l.startsWith('```')).length % 2).toBe(0);
  });

  // Chromium prints h4-h6 in bold at the body's size: they were paragraphs, the options' sections lost.
  it("reads a bold line set apart from the next as a heading (a README's option names)", async () => {
    const { text } = await extractDocument('pdf', fixture('content-disposition-readme.pdf'));
    expect(text).toContain('#### Options\n\n`contentDisposition` accepts these properties in the options object.');
    expect(text).toContain('#### fallback\n\nIf the `filename` option is outside ISO-8859-1');
    expect(text).toContain('#### type\n\nSpecifies the disposition type');
    // Bold words inside a line stay text: "note" opens its paragraph.
    expect(text).toContain('\n\nnote HTTP headers are of the ISO-8859-1 character set.');
  });

  // p-retry's unicorn emoji has no character in its font: pdf.js gives NUL, which PostgreSQL
  // refuses in text, so the upload failed there.
  it('keeps no NUL of a glyph that maps to no character', async () => {
    const { text, chunks } = await extractDocument('pdf', fixture('p-retry-readme.pdf'));
    expect(text).toContain("await pRetry(() => run('')");
    expect(text).not.toContain('\u0000');
    for (const c of chunks ?? []) expect(c.content).not.toContain('\u0000');
  });

  it('keeps no NUL byte of a Markdown file', async () => {
    const { text } = await convertFile(Buffer.from('# Notes\n\nrun(\u0000) twice\n'), { fileName: 'notes.md' });
    expect(text).toBe('# Notes\n\nrun() twice\n');
  });

  it('fences monospace lines as code with their line breaks: a // comment stays on its own line', async () => {
    const { text } = await extractDocument('pdf', fixture('fast-uri-readme.pdf'));
    expect(text).toContain(
      '```\nconst uri = require(\'fast-uri\')\nuri.resolve("uri://a/b/c/d?q", "../../g")\n// Output\n"uri://a/g"\n```',
    );
    // Indentation is kept by column: the object literal's fields stay indented.
    expect(text).toContain('{\n  scheme: "uri",\n  userinfo: "user:pass",');
    expect(text).toContain('### Resolve');
  });

  // A word space printed before an inline code span is half the text's height wide: a cell gap is
  // wider. Taken for one, a list item's lines (with `//javascript:80/x` in them) became a table.
  it('a space before an inline code span is no cell gap: a list item with code spans stays one item', async () => {
    const { text } = await extractDocument('pdf', fixture('fast-uri-readme.pdf'));
    expect(text).toMatch(
      /^- A suffix reference is written without its scheme .* an authority component cannot always be distinguished from a path\. When the input carries an authority of the form `host:port` \(for example `\/\/javascript:80\/x`\)/m,
    );
    expect(text).toContain(
      '- `tolerant` (boolean, false) If set to `true`, the parser will relax URI resolving rules.',
    );
    expect(text).not.toMatch(/^\| example \|/m);
  });

  it('keeps a box-drawing benchmark table inside its code block, never a table of "│"', async () => {
    const { text } = await extractDocument('pdf', fixture('fast-uri-readme.pdf'));
    const block = /```\nfast-uri benchmark\n[\s\S]*?```/.exec(text)?.[0] ?? '';
    expect(block).toContain("│ 0       │ 'fast-uri: parse domain'");
    expect(block.split('\n').length).toBeGreaterThan(30);
    expect(text).not.toMatch(/^\|\s*│/m);
    expect(text).toContain('## Benchmarks');
  });

  it('a multi-line command block keeps its lines; list items stay items (buffer README)', async () => {
    const pdf = readFileSync(path.resolve(import.meta.dirname, '../../../bench/content/docs/buffer-readme.pdf'));
    const { text } = await extractDocument('pdf', pdf);
    expect(text).toContain(
      "```\nnpm run test-browser-es5-local # For ES5 browsers that don't support ES6\nnpm run test-browser-es6-local # For ES6 compliant browsers\n```",
    );
    expect(text).toContain('- Manipulate binary data like a boss, in all browsers!\n- Super fast.');
    // Body text is never taken for a heading on a page of code, and the real headings are.
    expect(text).toContain('## how does it work?');
    expect(text).not.toMatch(/^#+ (The|This|To|If) /m);
  });
});

describe('Chromium PDFs: blocks a page break cut, tables of code-span names', () => {
  it("joins a quote's or an item's wrapped lines, though its box ends short of the page's edge (bcrypt)", async () => {
    const { text } = await extractDocument('pdf', fixture('bcrypt-readme.pdf'));
    expect(text).toContain(
      'Any extra bytes are ignored when matching passwords. Note that this is not the first 72 characters. It is possible',
    );
    expect(text).toContain('severely weakened passwords. Please upgrade at earliest.');
    expect(text).not.toMatch(/^- (?:first 72|upgrade at|containing emojis)/m);
  });

  it('is one fenced block on the page it starts on (picomatch README)', async () => {
    const pdf = readFileSync(path.resolve(import.meta.dirname, '../../../bench/content/docs/picomatch-readme.pdf'));
    const { text } = await extractDocument('pdf', pdf);
    const block = /```\n# \.makeRe star \(\*\)\n[\s\S]*?```/.exec(text)?.[0] ?? '';
    expect(block).toContain('minimatch x 1,396,257 ops/sec ±0.58% (96 runs sampled)');
  });

  it('an options table whose names are code spans beside a wrapped description is a table, not code (picomatch README)', async () => {
    const pdf = readFileSync(path.resolve(import.meta.dirname, '../../../bench/content/docs/picomatch-readme.pdf'));
    const { text } = await extractDocument('pdf', pdf);
    expect(text).toContain('| Option | Type | Default value | Description |');
    expect(text).toMatch(
      /^\| `basename` \| `boolean` \| `false` \| If set, then patterns without slashes will be matched against the basename/m,
    );
    // The table goes on across the page break under one header; a row whose name is plain text is a row too.
    expect(text).toMatch(/^\| `expandRange` \|.*\n\| `fastpaths` \|/m);
    expect(text).toMatch(/^\| format \| `function` \| `undefined` \| Custom function/m);
    expect(text).not.toMatch(/```\n(basename|bash|capture) +boolean/);
    // A row after a long description is not taken for the next row's header (literalBrackets was
    // lost so), a one-line description on its row's baseline is that row's, and the rows go on
    // across the page break: the whole table is one, from basename to windows.
    const table = /\| Option \| Type \| Default value \| Description \|\n((?:\|.*\|\n)+)/.exec(text)?.[1] ?? '';
    const names = table.split('\n').map((row) => /^\| `?(\w+)`? \|/.exec(row)?.[1]);
    expect(names).toEqual(expect.arrayContaining(['literalBrackets', 'matchBase', 'nobracket', 'nocase', 'onResult']));
    expect(names[1]).toBe('basename');
    expect(names.at(-2)).toBe('windows');
    expect(table).toContain(
      '| `literalBrackets` | `boolean` | `undefined` | When `true`, brackets in the glob pattern will be escaped so that only literal brackets will be matched. |\n| `matchBase` | `boolean` | `false` | Alias for `basename` |',
    );
  });

  it('a table whose rows leave a cell empty or centre it is a table, one across page breaks (buffer README)', async () => {
    const pdf = readFileSync(path.resolve(import.meta.dirname, '../../../bench/content/docs/buffer-readme.pdf'));
    const { text } = await extractDocument('pdf', pdf);
    // Before, each benchmark row was a paragraph of its own ("BrowserBuffer#concat 450,532 ops/sec ±0.76% 68").
    const chrome = /### Chrome 38\n\n((?:\|.*\|\n?)+)/.exec(text)?.[1].trim().split('\n') ?? [];
    expect(chrome[0]).toBe('| Method | Operations | Accuracy | Sampled | Fastest |');
    expect(chrome).toContain('| BrowserBuffer#concat | 450,532 ops/sec | ±0.76% | 68 |  |');
    expect(chrome).toContain('| Uint8Array#concat | 1,368,911 ops/sec | ±1.50% | 62 | ✓ |');
    // Its last row was printed on the next page under the header again: it ends the same table.
    expect(chrome.at(-1)).toBe('| DataView#setFloat32 | 141,249 ops/sec | ±0.40% | 66 | ✓ |');
    expect(text).not.toMatch(/^Method Operations Accuracy/m);
  });

  it("a page of list items keeps them items: the document's left edge, not the page's, says what is indented (picomatch README)", async () => {
    const pdf = readFileSync(path.resolve(import.meta.dirname, '../../../bench/content/docs/picomatch-readme.pdf'));
    const { text } = await extractDocument('pdf', pdf);
    // Before, most lines of the first page were list items, so they set its edge and ran together as one paragraph.
    expect(text).toContain(
      '## Why picomatch?\n\n- Lightweight - No dependencies\n- Minimal - Tiny API surface. Main export is a function that takes a glob pattern and returns a matcher function.\n- Fast - Loads in about 2ms',
    );
    expect(text).toMatch(/^Blazing fast and accurate glob matcher/m);
    // A line the next word and its space would not have fitted on goes on in the next: one item. The
    // page footer's number, further right than any text, had set the edge.
    expect(text).toContain(
      '- `returnOutput` {Boolean}: Intended for implementors, this argument allows you to return the raw output from the parser.',
    );
  });

  // is-unsafe's README (test/fixtures/real-docs): tables whose cells are all code spans, printed
  // wholly in monospace. They were fenced as code, cutting their table in two, and a code span's
  // space (`<meta http-equiv="refresh"`), printed as a wide blank, split its cell.
  it('a row of code-span cells is a table row, and a code span is one cell', async () => {
    const { text } = await extractDocument('pdf', fixture('is-unsafe-readme.pdf'));
    expect(text).toContain(
      "| v1 | v2 |\n| --- | --- |\n| `isUnsafe(v, 'HTML')` | `isUnsafe(v, HTML)` |\n| `isUnsafe(v, ['HTML', 'XML'])` | `isUnsafe(v, [HTML, XML])` |",
    );
    expect(text).toContain(
      '| `html-base-tag` | `<base href=` — relative URL hijacking |\n| `html-meta-refresh` | `<meta http-equiv="refresh"` |\n| `html-srcdoc` | `srcdoc=` attribute on iframes |',
    );
    expect(text).toContain('| `sql-drop-table` | `DROP TABLE` |\n| `sql-insert-into` | `INSERT INTO` |');
  });

  // s3rver's README (test/fixtures/real-docs): a browser prints a row's cells one after the other,
  // each whole, so a type that wraps (`string` | `Buffer`) and the description centred beside it
  // came as lines of their own, and the table ended at the first such row.
  it('a row whose cells wrap onto lines of their own is one row (s3rver README options)', async () => {
    const { text } = await extractDocument('pdf', fixture('s3rver-readme.pdf'));
    expect(text).toContain(
      '| Option | Type | Default | Description |\n| --- | --- | --- | --- |\n| address | `string` | `localhost` | Host/IP to bind to |\n| port | `number` | `4568` | Port of the HTTP server |\n| key | `string` \\| `Buffer` |  | Private key for running with TLS |',
    );
    expect(text).toContain(
      '| allowMismatchedSignatures | `boolean` | `false` | Prevent `SignatureDoesNotMatch` errors for all well-formed signatures |',
    );
    expect(text).toContain(
      '| configureBuckets[].configs[] | `string` \\| `Buffer` |  | Raw XML string or Buffer of Bucket config |',
    );
  });

  it('joins only a page that opens with code to a page that ends with code, across a page of code alone', () => {
    const fence = '```';
    expect(
      joinCodeAcrossPages([
        `Intro\n\n${fence}\na()\n${fence}`,
        `${fence}\nb()\n${fence}`,
        `${fence}\nc()\n${fence}\n\nAfter`,
        `Text\n\n${fence}\nd()\n${fence}`,
        `Prose first\n\n${fence}\ne()\n${fence}`,
      ]),
    ).toEqual([
      `Intro\n\n${fence}\na()\nb()\nc()\n${fence}`,
      '',
      'After',
      `Text\n\n${fence}\nd()\n${fence}`,
      `Prose first\n\n${fence}\ne()\n${fence}`,
    ]);
  });

  it('joins a table the next page opens with its header again to the table the page ended with', () => {
    const head = '| Option | Type |\n| --- | --- |';
    expect(
      joinCodeAcrossPages([`Intro\n\n${head}\n| a | x |`, `${head}\n| b | y |\n\nAfter`, `${head}\n| c | z |`]),
    ).toEqual([`Intro\n\n${head}\n| a | x |\n| b | y |`, 'After', `${head}\n| c | z |`]);
  });
});

describe('a DOCX made by LibreOffice (pino README.md)', () => {
  it("keeps links to another file's section as one address, and code blocks whole", async () => {
    const { text } = await extractDocument('docx', fixture('pino-readme.docx'));
    expect(text).toContain('[Pino with Fastify](docs/web.md#fastify)');
    expect(text).not.toContain('\\l');
    expect(text).toContain(
      "```\nconst logger = require('pino')()\nlogger.info('hello world')\nconst child = logger.child({ a: 'property' })\nchild.info('hello child!')\n```",
    );
    expect(text).toContain('```\n$ npm install pino\n```');
  });

  it('repairs a field-code link to a bookmark in the document', () => {
    expect(repairHref('" \\l "usage')).toBe('#usage');
    expect(repairHref('https://example.com/a')).toBe('https://example.com/a');
  });
});

describe('man page terms set apart by their indent', () => {
  it("keeps tr(1)'s unbolded terms (`[:xdigit:]`, `\\NNN`) with their descriptions", () => {
    const { markdown } = extractHtml(fixture('tr.html').toString('utf8'));
    const terms = new Map(
      documentUnits(markdown)
        .filter((u) => u.kind === 'definition')
        .map((u) => [u.term, u.description]),
    );
    expect(terms.get('[:xdigit:]')).toBe('all hexadecimal digits');
    expect(terms.get('\\NNN')).toBe('character with octal value NNN (1 to 3 octal digits)');
    expect(terms.get('CHAR1-CHAR2')).toBe('all characters from CHAR1 to CHAR2 in ascending order');
    // Options groff already bolds stay as they were.
    expect(terms.get('-d, --delete')).toBe('delete characters in ARRAY1, do not translate');
    // The paragraph leading into the sequences ("… Interpreted sequences are:") is not --version's.
    expect(terms.get('--version')).toBe('output version information and exit');
  });

  it('leaves a paragraph that is a sentence, and one not followed by a deeper indent, as prose', () => {
    const html =
      '<html><body><p style="margin-left:11%;">Interpreted sequences are:</p><p style="margin-left:22%;">one</p>' +
      '<p style="margin-left:11%;">alone</p><p style="margin-left:11%;">same indent</p></body></html>';
    const { markdown } = extractHtml(html);
    expect(markdown).not.toContain('**');
  });
});
