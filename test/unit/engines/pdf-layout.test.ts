import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  joinParagraphLines,
  layoutPage,
  typeScale,
  type PositionedItem,
} from '../../../src/server/engines/extract/pdf-layout.js';

const item = (str: string, x: number, y: number, height = 10): PositionedItem => ({
  str,
  x,
  y,
  width: str.length * 5,
  height,
});

describe('PDF page layout from item positions', () => {
  it('aligned rows become a Markdown table; a blank item between cells does not join them', () => {
    const rows = [
      ['Plan', 'Price'],
      ['Taster', '$14.50'],
      ['Office', '$78.00'],
    ];
    const items = rows.flatMap((r, i) => [
      item(r[0], 50, 700 - i * 14),
      item(' ', 80, 700 - i * 14, 0),
      item(r[1], 200, 700 - i * 14),
    ]);
    expect(layoutPage(items)).toEqual([
      '| Plan | Price |',
      '| --- | --- |',
      '| Taster | $14.50 |',
      '| Office | $78.00 |',
    ]);
  });

  // fast-glob's "Compatible with node-glob?" table, centred (`:---:`): each cell starts where its
  // width puts it, so rows of names of other lengths were cut off as code.
  it('a table whose columns are centred keeps every row, whatever the width of its cells', () => {
    const name = fc.stringMatching(/^[a-z][a-zA-Z]{1,18}$/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, fc.oneof(name, fc.constant('–'))), { minLength: 3, maxLength: 12 }),
        (rows) => {
          const centred = (str: string, middle: number, y: number, mono: boolean): PositionedItem => ({
            ...item(str, middle - str.length * 2.5, y),
            mono,
          });
          const items = [['node-glob', 'fast-glob'], ...rows].flatMap(([a, b], i) => [
            centred(a, 100, 700 - i * 14, i > 0),
            centred(b, 260, 700 - i * 14, i > 0 && b !== '–'),
          ]);
          expect(layoutPage(items)).toEqual([
            '| node-glob | fast-glob |',
            '| --- | --- |',
            // A name printed in a monospace font was a code span.
            ...rows.map(([a, b]) => `| \`${a}\` | ${b === '–' ? b : `\`${b}\``} |`),
          ]);
        },
      ),
    );
  });

  it('aligned code lines stay code when a short line at the margin follows them (a heading in body type)', () => {
    const code = (str: string, x: number, y: number): PositionedItem => ({ ...item(str, x, y), mono: true });
    const rows = [
      ['ms(60000, { long: true })', '// "1 minute"'],
      ['ms(2 * 60000, { long: true })', '// "2 minutes"'],
      ['ms(-3 * 60000, { long: true })', '// "-3 minutes"'],
    ];
    const items = [
      ...rows.flatMap((r, i) => [code(r[0], 50, 700 - i * 14), code(r[1], 260, 700 - i * 14)]),
      item('Features', 50, 640),
      item('Works both in Node.js and in the browser, with any bundler you like.', 50, 610),
    ];
    const lines = layoutPage(items);
    expect(lines.join('\n')).not.toContain('|');
    expect(lines[0]).toBe('```');
    expect(lines).toContain('Features');
  });

  it("an ordered list's numbers, printed as text, make numbered items, not bullets", () => {
    const items = [
      item('To report a bug, follow these steps in order, each after the last one.', 50, 720),
      item('1. Fork this repository to your own account', 70, 706),
      item('2. Link the package to the global module directory', 70, 692),
      item('As always, you can run the tests using npm test and nothing more.', 50, 664),
    ];
    const lines = layoutPage(items);
    expect(lines).toContain('1. Fork this repository to your own account');
    expect(lines).toContain('2. Link the package to the global module directory');
    expect(lines.join('\n')).not.toContain('- 1.');
  });

  it('an item indented further than the one above is nested under it, as the page shows (a change log)', () => {
    const items = [
      item('The library computes the holidays of a year, as the law sets them.', 50, 762),
      item('It is tested against the official list for every year it covers.', 50, 748),
      item('It has no dependencies and runs in browsers and in Node alike.', 50, 734),
      item('Changes in each release of the library, newest last, as listed.', 50, 720),
      item('2019-09-03 : 1.0.9', 70, 706),
      item('minify build was broken and is fixed', 90, 692),
      item('2021-06-29 : 1.0.10', 70, 678),
      item('sports day is supported', 90, 664),
      item('olympics exception is supported', 90, 650),
      item('That is all for now, and the next release is not planned yet.', 50, 622),
    ];
    const text = joinParagraphLines(layoutPage(items));
    expect(text).toContain(
      [
        '- 2019-09-03 : 1.0.9',
        '  - minify build was broken and is fixed',
        '- 2021-06-29 : 1.0.10',
        '  - sports day is supported',
        '  - olympics exception is supported',
      ].join('\n'),
    );
  });

  // Session 72: sonic-boom's options list (Chromium PDF) had maxWrite's entry joined to maxLength's,
  // whose last line ran too close to the edge for the name "maxWrite:" to have fitted after it.
  it('an indented line opening with a code span and a colon starts the next item, however full the line above', () => {
    const mono = (str: string, x: number, y: number): PositionedItem => ({ ...item(str, x, y), mono: true });
    const items = [
      item(
        'Creates a new instance of the stream, which writes to a file or a file descriptor as it is told to.',
        50,
        762,
      ),
      item('The instance takes its options as one object, each of them optional, as listed here below.', 50, 748),
      item('The options are:', 50, 734),
      mono('maxLength', 70, 720),
      item(': the maximum length of the internal buffer. If a write would exceed it, the data', 115, 720),
      item('written is dropped and a drop event is emitted with the dropped data, as said before', 70, 706),
      mono('maxWrite', 70, 692),
      item(': the maximum number of bytes that can be written; default: 16384', 110, 692),
      item('For sync mode the instance emits its ready event at once, before anything can listen.', 50, 664),
    ];
    const text = joinParagraphLines(layoutPage(items));
    expect(text).toContain('\n- `maxWrite`: the maximum number of bytes that can be written; default: 16384');
    expect(text).toContain('- `maxLength`: the maximum length of the internal buffer.');
  });

  // Session 86: rimraf's README printed by Chromium has more lines in lists than in prose; the commonest
  // start was the lists' indent, so no item was read as one and its lists ran together as paragraphs.
  it("a README that is mostly lists keeps them lists: the text's edge is where its prose starts, not its commonest start", () => {
    const prose = [
      'Install with npm install rimraf, or with any other package manager.',
      'All removal functions return a boolean saying whether every entry went.',
      'Globbing is opt-in.',
    ];
    const items = [
      'Require node 20 or later',
      'Add --version to the CLI',
      'Functions take arrays of paths',
      'Native used by default',
      'Simplified on POSIX',
      'Returns a boolean',
    ];
    const page = [
      ...prose.map((t, i) => item(t, 50, 760 - i * 30)),
      ...items.map((t, i) => item(t, 80, 690 - i * 14)),
      item('The CLI deletes what it is given.', 50, 580),
    ];
    const lines = layoutPage(page);
    for (const t of items) expect(lines).toContain(`- ${t}`);
    expect(lines).toContain('Globbing is opt-in.');
  });

  it("a loose list's next item starts after the paragraph gap, however full the line above", () => {
    const page = [
      item('Options:', 50, 760),
      item('retryDelay: Native only. Time to wait between retries, using linear backoff, in ms.', 80, 740),
      item('signal Pass in an AbortSignal to cancel the directory removal.', 80, 710),
      item('The rest of the text.', 50, 680),
    ];
    const lines = layoutPage(page, { body: 10, left: 50, right: 80 + 84 * 5 });
    expect(lines).toContain('- signal Pass in an AbortSignal to cancel the directory removal.');
  });

  it('a list nested in an open item may go further in than a first-level list may', () => {
    const page = [
      item('The constructor takes these settings:', 50, 760),
      item('limits - object - Various limits. Valid properties are:', 80, 746),
      item('fields - integer - Max number of non-file fields.', 110, 732),
      item('parts - integer - Max number of parts.', 140, 718),
      item('Back to the prose.', 50, 690),
    ];
    // Seven bodies in is as far as a list starts; a level past an open one's is still its.
    const lines = layoutPage(page, { body: 10, left: 50, right: 400 });
    expect(lines).toContain('  - fields - integer - Max number of non-file fields.');
    expect(lines).toContain('    - parts - integer - Max number of parts.');
  });

  it("a monospace run in a line of prose is a code span; one a line's end broke is one span again", () => {
    const mono = (str: string, x: number, y: number): PositionedItem => ({ ...item(str, x, y), mono: true });
    const page = [
      item('Set', 50, 760),
      mono('maxRetries', 70, 760),
      item('to retry on', 122, 760),
      mono('EBUSY', 180, 760),
      item('errors, and read the', 208, 760),
      mono('Cache-Control', 312, 760),
      item('header with the', 380, 760),
      mono('no-', 460, 760),
      mono('transform', 50, 746),
      item('directive.', 100, 746),
    ];
    expect(joinParagraphLines(layoutPage(page))).toBe(
      'Set `maxRetries` to retry on `EBUSY` errors, and read the `Cache-Control` header with the `no-transform` directive.',
    );
    // A call's items a space apart are one span; a line wholly in monospace is code, not spans.
    const call = layoutPage([
      item('Call', 50, 700),
      mono('fs.rm(path,', 75, 700),
      mono('opts)', 135, 700),
      item('once.', 165, 700),
    ]);
    expect(call).toEqual(['Call `fs.rm(path, opts)` once.']);
    expect(layoutPage([mono('const a = 1', 50, 700), mono('const b = 2', 50, 688)])).toEqual([
      '```',
      'const a = 1',
      'const b = 2',
      '```',
    ]);
  });

  it('two columns keep the content stream order: the first column, then the second, never a table', () => {
    const left = ['The left column starts here and', 'goes on for a while about', 'one subject.'];
    const right = ['The right column is about', 'another subject and reads', 'after the left one.'];
    const items = [
      ...left.map((t, i) => item(t, 50, 700 - i * 12)),
      ...right.map((t, i) => item(t, 320, 700 - i * 12)),
    ];
    const lines = layoutPage(items);
    expect(lines.join('\n')).not.toContain('|');
    expect(lines.indexOf('one subject.')).toBeLessThan(lines.indexOf('The right column is about'));
  });

  it('larger type on a line of its own is a heading', () => {
    const items = [
      item('Refund times', 50, 720, 14),
      item('Refunds go back to the original payment method.', 50, 690),
      item('How long they take depends on how you paid.', 50, 678),
    ];
    expect(layoutPage(items)[0]).toBe('## Refund times');
  });

  it("a bold line at a page's foot is a heading, though the print header comes after it in the page's order", () => {
    const bold = (str: string, x: number, y: number): PositionedItem => ({ ...item(str, x, y), bold: true });
    const items = [
      item('The exponential factor to use.', 50, 120),
      bold('minTimeout', 50, 80),
      item('12/6/26, 7:44 AM', 50, 820),
      item('https://github.com/sindresorhus/p-retry', 50, 16),
    ];
    expect(layoutPage(items)).toContain('#### minTimeout');
  });

  it("a bold line set apart that ends a sentence (tiny-pinyin's bold 注意 line, ending in 。) is text, not a heading", () => {
    const bold = (str: string, x: number, y: number): PositionedItem => ({ ...item(str, x, y), bold: true });
    const lines = layoutPage([
      item('轻量的汉字转拼音库。', 50, 720),
      bold('注意：不支持多音字；ie/edge 测试未通过。', 50, 690),
      item('使用方法如下。', 50, 660),
      bold('Install', 50, 630),
      item('npm 安装即可。', 50, 600),
    ]);
    expect(lines).toContain('注意：不支持多音字；ie/edge 测试未通过。');
    expect(lines).toContain('#### Install');
  });

  it('rows of links above the text (badges printed as their alt text) are left out; links within the text stay', () => {
    const linked = (str: string, x: number, y: number, link: number): PositionedItem => ({ ...item(str, x, y), link });
    const lines = layoutPage([
      linked('Build Status', 50, 720, 0),
      linked('npm version', 120, 720, 1),
      linked('License', 190, 720, 2),
      item('A tokenizer for Chinese text.', 50, 700),
      linked('Guide', 50, 680, 3),
      linked('API', 120, 680, 4),
      linked('FAQ', 190, 680, 5),
    ]);
    expect(lines.join('\n')).not.toContain('Build Status');
    expect(lines).toContain('A tokenizer for Chinese text.');
    expect(lines.join(' ')).toContain('Guide');
  });

  it('a line that is one link is written as a Markdown link; a link inside a sentence is not', () => {
    const at = (str: string, x: number, y: number, link?: number, href?: string): PositionedItem => ({
      ...item(str, x, y),
      ...(link === undefined ? {} : { link, href }),
    });
    const lines = layoutPage([
      at('Read the guide for more.', 50, 720),
      at('Writing [fast] parsers', 50, 700, 0, 'https://example.com/post'),
      at('See', 50, 680),
      at('the docs', 70, 680, 1, 'https://example.com/docs'),
      at('for details.', 120, 680),
    ]);
    expect(lines).toContain('[Writing \\[fast\\] parsers](https://example.com/post)');
    expect(lines).toContain('See the docs for details.');
  });
});

describe('lines joined into paragraphs', () => {
  it('joins a word hyphenated at a line end, and keeps a hyphen the word is written with', () => {
    expect(joinParagraphLines(['Some text about the docu-', 'ment that runs on.'])).toBe(
      'Some text about the document that runs on.',
    );
    // japanese-holidays' README printed by Chromium: a browser breaks lines at a name's hyphen.
    expect(
      joinParagraphLines([
        'ご利用の際には lib 内の japanese-',
        'holidays.js や japanese-holidays.min.js を使ってください。',
      ]),
    ).toBe('ご利用の際には lib 内の japanese-holidays.js や japanese-holidays.min.js を使ってください。');
    expect(joinParagraphLines(['A well-known rule, and the well-', 'known rule again.'])).toBe(
      'A well-known rule, and the well-known rule again.',
    );
    // Two words joined by their hyphen ("no-transform" printed once) keep it; a word's pieces do not.
    expect(joinParagraphLines(['a header with the no-', 'transform directive'])).toBe(
      'a header with the no-transform directive',
    );
    expect(joinParagraphLines(['better compres-', 'sion'])).toBe('better compression');
  });

  it('keeps `Name: value` lines a <br> broke apart as lines of their own', () => {
    expect(joinParagraphLines(['Type: Number', 'Default: zlib.constants.Z_DEFAULT_MEMLEVEL, or 8'])).toBe(
      'Type: Number\\\nDefault: zlib.constants.Z_DEFAULT_MEMLEVEL, or 8',
    );
    expect(joinParagraphLines(['Note: a sentence that', 'Goes on here.'])).toBe('Note: a sentence that Goes on here.');
  });
});

describe('typeScale', () => {
  // Math.max(...ys) over a page's items threw "Maximum call stack size exceeded" past ~120,000 items;
  // a page within the text limit (5,000,000 characters) may hold many more.
  it("reads a page of 300,000 one-letter items, its body size the text's, not the print footer's", () => {
    const item = (str: string, y: number, height: number): PositionedItem => ({
      str,
      x: 50 + (y % 7),
      y,
      width: 6,
      height,
      mono: false,
      bold: false,
    });
    const page = [
      ...Array.from({ length: 300_000 }, (_, i) => item('a', 100 + (i % 600), 12)),
      item('footer text printed small on every page, longer than any line', 10, 6),
    ];
    expect(typeScale([page]).body).toBe(12);
  });
});
