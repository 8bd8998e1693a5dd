import fc from 'fast-check';
import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { splitLabelLines } from '../../../src/server/engines/extract/label-lines.js';
import { documentUnits } from '../../../src/server/text/units.js';

/**
 * groff writes a man page's first option on a line break after the sentence above it, the break
 * inside the bold: `too. <b><br>-b</b>, <b>--print-bytes</b>`. It became `too.** -b**` (a broken
 * bold, the option in the sentence), so cmp's -b, date's -d and sort's -b were no options.
 */
const groff = `<p style="margin-left:11%">Mandatory arguments to long options are mandatory for short options
too. <b><br>
-b</b>, <b>--print-bytes</b></p>
<p style="margin-left:22%;">print differing bytes</p>`;

it("a man page's option after a line break is a term of its own, with its description", () => {
  const markdown = htmlToMarkdown(groff);
  expect(markdown).toBe(
    'Mandatory arguments to long options are mandatory for short options too.\n\n**\\-b**, **\\--print-bytes**\n\nprint differing bytes',
  );
  const option = documentUnits(markdown).find((u) => u.kind === 'definition');
  expect(option?.term).toBe('-b, --print-bytes');
  expect(option?.description).toBe('print differing bytes');
});

it('a line break before words, or a bold word inside a sentence, stays in its paragraph', () => {
  expect(htmlToMarkdown('<p>First line<br>second line with <b>bold</b> in it</p>')).toBe(
    'First line\\\nsecond line with **bold** in it',
  );
  expect(htmlToMarkdown('<p><br><b>-x</b></p>')).toBe('**\\-x**');
});

// get-port's README as a LibreOffice DOCX: "Type: boolean" and "Default: false" are two lines of one
// paragraph. turndown's two-space break was trimmed as trailing whitespace, and the lines ran together.
it('a line break is a hard break, unless it ends its block or sits in a heading', () => {
  expect(
    htmlToMarkdown('<h5>reserve<br>option</h5><p>Type: <code>boolean</code><br>Default: <code>false</code><br></p>'),
  ).toBe('##### reserve option\n\nType: `boolean`\\\nDefault: `false`');
});

const piece = fc.oneof(
  fc.constantFrom('<br>', ', ', '=', ' text ', 'words here.'),
  fc.stringMatching(/^[a-z -]{1,8}$/).map((s) => `<b>${s}</b>`),
  fc.stringMatching(/^[a-z -]{1,8}$/).map((s) => `<b><br>${s}</b>`),
  fc.stringMatching(/^[a-z]{1,8}$/).map((s) => `<i>${s}</i>`),
);

it('moves breaks and splits paragraphs without losing or reordering any text (generated)', () => {
  fc.assert(
    fc.property(fc.array(fc.array(piece, { maxLength: 8 }), { minLength: 1, maxLength: 4 }), (paragraphs) => {
      const html = paragraphs.map((p) => `<p>${p.join('')}</p>`).join('');
      const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
      const before = (document.body.textContent ?? '').replace(/\s+/g, '');
      splitLabelLines(document.body);
      expect((document.body.textContent ?? '').replace(/\s+/g, '')).toBe(before);
    }),
    { numRuns: 200 },
  );
});
