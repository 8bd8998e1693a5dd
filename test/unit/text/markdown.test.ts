import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { PhrasingContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import {
  inlineMarkdown,
  markdownBlocks,
  markdownToPlainText,
  parseMarkdown,
  type Block,
} from '../../../src/server/text/markdown.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { inlineSentences, sentences, words } from '../../../src/server/text/segment.js';
import { fitWhole, shortenBlock, shortenToSentences } from '../../../src/server/text/shorten.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');

const only = <K extends Block['kind']>(blocks: Block[], kind: K) =>
  blocks.filter((b): b is Extract<Block, { kind: K }> => b.kind === kind);

describe('markdownBlocks', () => {
  it("reads an item's last opening paragraph before a code block as the block's lead-in, not the item's words", () => {
    // pinyin-pro's README (HTML) hides each example in a <details> whose <summary> labels it.
    const html = readFileSync(
      path.resolve(import.meta.dirname, '../../../bench/content/docs/pinyin-pro-readme.html'),
      'utf8',
    );
    const blocks = markdownBlocks(extractHtml(html).markdown);
    const item = only(blocks, 'listItem').find((b) => b.text.startsWith('文本和拼音匹配'));
    expect(item?.text).toBe('文本和拼音匹配，更多匹配规则请查看match API');
    const label = blocks.findIndex((b) => b.text === '点击展开文本和拼音匹配示例');
    expect(blocks[label]?.kind).toBe('paragraph');
    // A label, written in bold as captions are.
    expect(blocks[label]?.markdown).toBe('**点击展开文本和拼音匹配示例**');
    expect(blocks[label + 1]?.kind).toBe('code');
    // Two paragraphs with no code after them are both the item's.
    const plain = only(markdownBlocks('- first\n\n  second\n- next'), 'listItem');
    expect(plain[0].text).toBe('first\nsecond');
  });

  it('reads a heading closed without a space (`##Install##`) as a heading, never inside a fence', () => {
    const md = '#LunarCalendar#\r\n\r\n##Install##\r\ntext\r\n\r\n```c\r\n#define X#\r\n```\r\n\r\n#1 and #2#3';
    const blocks = markdownBlocks(md);
    expect(only(blocks, 'heading').map((h) => [h.depth, h.text])).toEqual([
      [1, 'LunarCalendar'],
      [2, 'Install'],
    ]);
    expect(only(blocks, 'code')[0].value).toBe('#define X#');
    expect(only(blocks, 'paragraph').map((p) => p.text)).toEqual(['text', '#1 and #2#3']);
  });

  it('reads headings written without the space as headings where the document writes most of them so', () => {
    // id-validator's README: `##API`, `###CMD / SeaJS`…, one `## License`.
    const blocks = markdownBlocks(readFileSync(path.join(FIXTURES, 'id-validator-readme.md'), 'utf8'));
    expect(only(blocks, 'heading').map((h) => h.text)).toEqual([
      'IDValidator.js',
      'API',
      'Getting Start',
      '浏览器端直接使用',
      'AMD / RequireJS',
      'CMD / SeaJS',
      'CommonJS / Node',
      '使用方法:',
      '参考资料',
      'License',
    ]);
    // A piece parsed alone does not decide it: it may hold `#tag` lines and none of its document's headings.
    expect(parseMarkdown('#tagged one\n\n#tagged two\n').children.map((c) => c.type)).toEqual([
      'paragraph',
      'paragraph',
    ]);
    // One such line among headings written with the space is a paragraph, as CommonMark reads it.
    expect(only(markdownBlocks('# Title\n\n## Usage\n\n#hashtag here\n'), 'paragraph').map((p) => p.text)).toEqual([
      '#hashtag here',
    ]);
  });

  it("leaves GitHub's alert mark out of the note it draws", () => {
    const blocks = markdownBlocks('> [!NOTE]\n> This callback is **not** called.\n\n> [!WARNING]\n>\n> Careful.');
    expect(only(blocks, 'blockquote').map((b) => b.children.map((c) => c.markdown))).toEqual([
      ['This callback is **not** called.'],
      ['Careful.'],
    ]);
  });

  it('writes a reference link as the link its definition gives, so a block quoted alone keeps it', () => {
    // content-disposition's README: its references' definitions close the document.
    const md = [
      '## References',
      '',
      '- [RFC 6266: Use of the Content-Disposition Header Field][rfc-6266]',
      '- [Unknown][nowhere]',
      '',
      '[![NPM Version][npm-image]][npm-url]',
      '',
      '[rfc-6266]: https://tools.ietf.org/html/rfc6266',
      '[npm-image]: https://img.shields.io/npm/v/content-disposition.svg',
      '[npm-url]: https://npmjs.org/package/content-disposition',
    ].join('\n');
    const [, rfc, unknown, badge] = markdownBlocks(md);
    expect(rfc.markdown).toBe(
      '[RFC 6266: Use of the Content-Disposition Header Field](https://tools.ietf.org/html/rfc6266)',
    );
    expect(markdownBlocks(rfc.markdown)[0].text).toBe('RFC 6266: Use of the Content-Disposition Header Field');
    expect(unknown.text).toBe('[Unknown][nowhere]');
    expect(badge.kind).toBe('badge');
  });

  it('drops emphasis as markup and keeps `*` and `_` that are characters', () => {
    const [p] = markdownBlocks('Set `DEBUG=*` to see _all_ output; a **snake_case** name, or DEBUG=* plainly.');
    expect(p.kind).toBe('paragraph');
    expect(p.text).toBe('Set DEBUG=* to see all output; a snake_case name, or DEBUG=* plainly.');
    expect(p.markdown).toContain('`DEBUG=*`');
    expect(markdownToPlainText(p.markdown)).toBe(p.text);
  });

  it('walks headings (with their section), lists with depth, code verbatim, tables with cells', () => {
    const md = [
      '# Guide',
      '',
      '## Install',
      '',
      '1. Run `npm i pino`',
      '   - then *check*',
      '',
      '```bash',
      'DEBUG=* node app.js   # keep   spacing',
      '```',
      '',
      '## LTS',
      '',
      '| Version | End Of LTS Date |',
      '| --- | --- |',
      '| 8.x | 2024-10-26 |',
      '| `9.x` | [soon](https://x.test) |',
      '',
      '> Quoted **words**.',
      '',
      '<div align="center">hi</div>',
      '',
      '[![npm](https://img.shields.io/npm/v/pino.svg)](https://npm.im/pino) [![ci](https://x.test/ci.svg)](https://x.test)',
      '',
      '![Diagram](diagram.png)',
    ].join('\n');
    const blocks = markdownBlocks(md);
    expect(blocks.map((b) => b.kind)).toEqual([
      'heading',
      'heading',
      'listItem',
      'listItem',
      'code',
      'heading',
      'table',
      'blockquote',
      'html',
      'badge',
      'image',
    ]);
    const [guide, install] = only(blocks, 'heading');
    expect([guide.depth, install.depth, install.section]).toEqual([1, 2, ['Guide']]);
    const items = only(blocks, 'listItem');
    expect(items.map((i) => [i.depth, i.ordered, i.text])).toEqual([
      [1, true, 'Run npm i pino'],
      [2, false, 'then check'],
    ]);
    expect(items[0].markdown).toBe('Run `npm i pino`');
    const [code] = only(blocks, 'code');
    expect([code.lang, code.value, code.section]).toEqual([
      'bash',
      'DEBUG=* node app.js   # keep   spacing',
      ['Guide', 'Install'],
    ]);
    const [table] = only(blocks, 'table');
    expect(table.header.map((c) => c.text)).toEqual(['Version', 'End Of LTS Date']);
    expect(table.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['8.x', '2024-10-26'],
      ['9.x', 'soon'],
    ]);
    expect(table.rows[1].map((c) => c.markdown)).toEqual(['`9.x`', '[soon](https://x.test)']);
    expect(table.section).toEqual(['Guide', 'LTS']);
    expect(blocks[7].text).toBe('Quoted words.');
    const image = blocks[10];
    expect(image.kind === 'image' && [image.alt, image.url]).toEqual(['Diagram', 'diagram.png']);
  });

  it('joins a sentence wrapped over lines with one space, keeps a hard break as a newline', () => {
    const [p] = markdownBlocks('one\ntwo  \nthree');
    expect(p.text).toBe('one two\nthree');
  });

  it('keeps the characters of any text through Markdown and back (property)', () => {
    // Any text node, emphasised or not, serialised by mdast-util-to-markdown (which escapes what
    // would be markup) comes back with every character, `*`, `_`, `` ` `` and `#` included.
    const piece = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '*', '_', '`', '#', '=', '.', '中', '-'),
      minLength: 1,
      maxLength: 12,
    });
    const node = fc.oneof(
      piece.map((value): PhrasingContent => ({ type: 'text', value })),
      piece.map((value): PhrasingContent => ({ type: 'emphasis', children: [{ type: 'text', value }] })),
      piece.map((value): PhrasingContent => ({ type: 'strong', children: [{ type: 'text', value }] })),
    );
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 6 }), (nodes) => {
        const expected = nodes
          .map((n) =>
            n.type === 'text'
              ? n.value
              : n.type === 'emphasis' || n.type === 'strong'
                ? (n.children[0] as { value: string }).value
                : '',
          )
          .join('');
        const md = inlineMarkdown(nodes);
        const got = markdownBlocks(md)
          .map((b) => b.text)
          .join('');
        // Only whitespace may differ (leading/trailing space of a paragraph and runs of spaces).
        expect(got.replace(/\s+/g, ' ').trim()).toBe(expected.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an underscore a character when text nodes meet before emphasis', () => {
    // A counterexample of the property above: "a" and "_aa" as two text nodes came out as
    // `&#x61;_a&#x61;_&#x61;_&#x61;`, whose underscores read back as emphasis.
    const t = (value: string): PhrasingContent => ({ type: 'text', value });
    const nodes: PhrasingContent[] = [
      { type: 'strong', children: [t('`')] },
      t('a'),
      t('_aa'),
      { type: 'emphasis', children: [t('a')] },
      t('a'),
    ];
    const md = inlineMarkdown(nodes);
    expect(markdownBlocks(md).map((b) => b.text)).toEqual(['`a_aaaa']);
    expect(nodes[1]).toEqual(t('a'));
  });

  it('keeps every code span verbatim in the plain text (property)', () => {
    const code = fc
      .string({
        unit: fc.constantFrom('a', 'Z', '*', '_', '#', '=', '.', ' ', '-', '$', '\\', '['),
        minLength: 1,
        maxLength: 10,
      })
      .filter((s) => s.trim() === s && s.length > 0);
    const prose = fc.constantFrom('Run ', ' then ', '. Next ', ' and, ', ' e.g. ', '. ');
    fc.assert(
      fc.property(fc.array(fc.tuple(prose, code), { minLength: 1, maxLength: 5 }), (parts) => {
        const md = parts.map(([p, c]) => `${p}\`${c}\``).join('') + '.';
        const text = markdownBlocks(md)
          .map((b) => b.text)
          .join('\n');
        for (const [, c] of parts) expect(text).toContain(c);
      }),
      { numRuns: 300 },
    );
  });
});

describe('collapsed sections', () => {
  // A README's FAQ written as <details><summary>…</summary>: each answer is a section under its
  // question, which had been lost with the HTML around it.
  it('reads <details><summary> as a section under the summary until </details>', () => {
    const md = [
      '## FAQ',
      '',
      '<details><summary>Should I commit my `.env` file?</summary><br/>',
      '',
      'No.',
      '',
      '</details>',
      '<details><summary>What about variable expansion?</summary>',
      '',
      'Use dotenvx.',
      '',
      '</details>',
      '',
      'After the entries.',
    ].join('\n');
    const sections = markdownBlocks(md)
      .filter((b) => b.kind === 'paragraph')
      .map((b) => [b.text, b.section]);
    expect(sections).toEqual([
      ['No.', ['FAQ', 'Should I commit my .env file?']],
      ['Use dotenvx.', ['FAQ', 'What about variable expansion?']],
      ['After the entries.', ['FAQ']],
    ]);
    const heading = markdownBlocks(md).find((b) => b.kind === 'heading' && b.depth === 3);
    expect(heading?.markdown).toBe('Should I commit my `.env` file?');
  });
});

describe('sentences', () => {
  it('never splits inside a code span, and keeps each sentence as inline Markdown', () => {
    const [p] = markdownBlocks('Call `a.b(). Then c()` first. Set `DEBUG=*` too! Done.');
    expect(inlineSentences(p.inline!)).toEqual([
      { text: 'Call a.b(). Then c() first.', markdown: 'Call `a.b(). Then c()` first.' },
      { text: 'Set DEBUG=* too!', markdown: 'Set `DEBUG=*` too!' },
      { text: 'Done.', markdown: 'Done.' },
    ]);
  });

  it('does not cut a version or a file name at its dots ("1.1.X", "a.out")', () => {
    expect(sentences('Workaround for 1.1.X and later versions: use a.out. You may then get reports.')).toEqual([
      'Workaround for 1.1.X and later versions: use a.out.',
      'You may then get reports.',
    ]);
  });

  it("does not cut after a mark quoted alone (\"replaced with '?' (U+003F)\"), but after a quoted word's stop", () => {
    expect(sentences("Characters are replaced with '?' (U+003F) by default. Then run 'update'. It ends.")).toEqual([
      "Characters are replaced with '?' (U+003F) by default.",
      "Then run 'update'.",
      'It ends.',
    ]);
  });

  it('splits Chinese and Japanese sentences, which have no spaces', () => {
    expect(sentences('这是第一句。这是第二句！これは三番目です。')).toEqual([
      '这是第一句。',
      '这是第二句！',
      'これは三番目です。',
    ]);
  });

  it('a straight quote after a stop opens the next sentence unless it closes a quote of its own', () => {
    // Japanese prose runs on without a space: ICU ended the first sentence after the next one's quote.
    expect(sentences('"すること[助詞]できる"は冗長な表現です。"すること[助詞]"を省きます。')).toEqual([
      '"すること[助詞]できる"は冗長な表現です。',
      '"すること[助詞]"を省きます。',
    ]);
    expect(sentences('He said "Stop." Then he left.')).toEqual(['He said "Stop."', 'Then he left.']);
  });

  it('keeps every character, and never ends a sentence on an opening quote (property)', () => {
    const piece = fc.constantFrom(
      '"A"は冗長です。',
      '"B"を省く。',
      'He said "Stop." ',
      'Then left. ',
      "'x' is one. ",
      '「C」とは何か。',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        const got = sentences(text);
        expect(got.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
        // A sentence ending in a quote has one to close: its count of that quote is even.
        for (const s of got) {
          const mark = s.at(-1);
          if (mark === '"' || mark === "'") expect([...s].filter((c) => c === mark).length % 2).toBe(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps each code span whole within one sentence (property)', () => {
    const code = fc
      .string({ unit: fc.constantFrom('a', '.', ' ', '!', '?', 'B', '*'), minLength: 1, maxLength: 8 })
      .filter((s) => s.trim() === s);
    const prose = fc.constantFrom('Use ', '. Then ', '! Or ', ' and ', '. 然后');
    fc.assert(
      fc.property(fc.array(fc.tuple(prose, code), { minLength: 1, maxLength: 5 }), (parts) => {
        const md = parts.map(([p, c]) => `${p}\`${c}\``).join('') + '.';
        const [block] = markdownBlocks(md);
        const got = inlineSentences(block.inline!);
        for (const [, c] of parts) expect(got.some((s) => s.text.includes(c) && s.markdown.includes('`'))).toBe(true);
        expect(
          got
            .map((s) => s.text)
            .join(' ')
            .replace(/\s+/g, ''),
        ).toBe(block.text.replace(/\s+/g, ''));
      }),
      { numRuns: 300 },
    );
  });
});

describe('words', () => {
  it('segments scripts without spaces into words, and keeps identifiers whole', () => {
    expect(words('退货政策')).toEqual(expect.arrayContaining(['政策']));
    expect(words('退货政策').join('')).toBe('退货政策');
    expect(words('返品ポリシーについて').join('')).toBe('返品ポリシーについて');
    expect(words('返品ポリシーについて')).toContain('ポリシー');
    expect(words('Set DEBUG=* and snake_case, v1.2!')).toEqual(['Set', 'DEBUG', 'and', 'snake_case', 'v1.2']);
  });
});

describe('shortening', () => {
  it('keeps whole sentences, never cuts one, and says so by returning nothing', () => {
    const text = 'First sentence here. Second one is longer than that. Third.';
    expect(shortenToSentences(text, 30)).toBe('First sentence here.');
    expect(shortenToSentences(text, 10)).toBe('');
    expect(shortenToSentences(text, 100)).toBe(text);
    const [p] = markdownBlocks('Run `a.b()` now. Then stop.');
    expect(shortenBlock(p, 18)).toEqual({ text: 'Run a.b() now.', markdown: 'Run `a.b()` now.' });
  });

  it('returns a prefix of whole sentences within the limit (property)', () => {
    const sentence = fc.constantFrom(
      'Short one.',
      'A somewhat longer sentence follows.',
      '中文句子。',
      'Ok!',
      'Is it?',
    );
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 120 }), (list, max) => {
        const text = list.join(' ');
        const short = shortenToSentences(text, max);
        expect([...short].length).toBeLessThanOrEqual(max);
        const all = sentences(text);
        const kept = sentences(short);
        expect(all.slice(0, kept.length)).toEqual(kept);
      }),
    );
    expect(fitWhole(['aa', 'bb', 'cc'], 5, (s) => s.length)).toEqual(['aa', 'bb']);
  });
});
