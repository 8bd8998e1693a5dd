import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfPages } from '../../../src/server/engines/extract/pdf.js';
import { chunkPages } from '../../../src/server/engines/retrieval/chunker.js';
import { layoutPage, type PositionedItem } from '../../../src/server/engines/extract/pdf-layout.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Chinese text printed by Chromium is set in a CJK face that pdf.js reports as monospace (every
 * ideograph is one width). Every Chinese heading and list had been fenced as code, its characters
 * spaced apart, and a code line's spaces lost after a Chinese string. The PDF is NodeJieba's
 * README printed by Chromium (bench/content/docs, nobody here wrote it).
 */
const PDF = path.join(BENCH_DOCS, 'nodejieba-readme.pdf');

describe('a Chinese PDF printed by a browser', () => {
  it('keeps its headings, list items and code as the page shows them', async () => {
    const text = (await pdfPages(readFileSync(PDF))).pages.join('\n\n');
    expect(text).toContain('## 介绍');
    // Its badges, printed as their images' alt text, each a link, are no text of the README.
    expect(text).not.toContain('Build Status');
    // A list of links to blog posts stays links, as the web page's were: where to read more.
    expect(text).toContain(
      '- [Node.js的C++扩展初体验之NodeJieba](https://github.com/yanyiwu/blog/blob/posts2023archive/_posts/2014-02-22-nodejs-cpp-addon-nodejieba.md)',
    );
    expect(text).toContain('## 安装\n\n```\nnpm install nodejieba\n```');
    expect(text).not.toMatch(/```\n(?:介 绍|特点|安 {2}装)/);
    // Five items, each its own, though the first fills its line and ends with a full stop.
    expect(text).toContain(
      [
        '- 词典载入方式灵活，无需配置词典路径也可使用，需要定制自己的词典路径时也可灵活定制。',
        '- 底层算法实现是C++，性能高效。',
        '- 支持多种分词算法，各种分词算法见CppJieba的README.md介绍。',
        '- 支持动态补充词库。',
        '- 支持TypeScript，提供完整的类型定义。',
      ].join('\n'),
    );
    // A Chinese line wrapped between two characters joins again without a space.
    expect(text).toContain('是兼具高性能和易用性两者的');
    // Spaces in code after a Chinese string are where the source had them.
    expect(text).toContain("//   { word: '手扶拖拉机', weight: 10.0088573539 },");
    expect(text).toContain('var result = nodejieba.cutAll("南京市长江大桥");');
  });

  it('a line of CJK characters in a face flagged monospace is text; code around CJK strings is code', () => {
    const item = (str: string, x: number, y: number, mono: boolean, width = str.length * 6): PositionedItem => ({
      str,
      x,
      y,
      width,
      height: 10,
      mono,
    });
    const lines = layoutPage([
      item('中文分词组件的介绍', 50, 700, true, 90),
      item('var s = "', 50, 680, true),
      item('南京市', 104, 680, true, 30),
      item('";', 134, 680, true),
      item('var t = 1;', 50, 668, true),
    ]);
    expect(lines[0]).toBe('中文分词组件的介绍');
    expect(lines).toContain('var s = "南京市";');
    expect(lines).toContain('var t = 1;');
  });

  it('CJK prose with code spans is prose; a string of CJK prose in code is code', () => {
    const item = (str: string, x: number, y: number, mono: boolean): PositionedItem => ({
      str,
      x,
      y,
      width: str.length * 8,
      height: 10,
      mono,
    });
    const lines = layoutPage([
      // A heading holding ー (a kana sign of Common script) and a paragraph with a code span.
      item('タイムゾーンについて', 50, 720, true),
      item('JapaneseHolidays.isHoliday', 50, 700, true),
      item('は与えられた「日付」を元に祝日を判定します。', 260, 700, true),
      item('var s = "', 50, 680, true),
      item('我是拖拉机学院的。不用多久，', 122, 680, true),
      item('";', 234, 680, true),
      item('var t = 1;', 50, 668, true),
    ]);
    expect(lines[0]).toBe('タイムゾーンについて');
    expect(lines).toContain('`JapaneseHolidays.isHoliday` は与えられた「日付」を元に祝日を判定します。');
    expect(lines.filter((l) => l.startsWith('```'))).toHaveLength(2);
    expect(lines).toContain('var s = "我是拖拉机学院的。不用多久，";');
  });
});

/** japanese-holidays' README (Japanese) printed by Chromium: prose, code spans and code blocks. */
const JA_PDF = path.resolve(import.meta.dirname, '../../fixtures/real-docs/japanese-holidays-readme.pdf');

describeAnswersOver(
  'questions in Japanese over a Japanese PDF',
  async () => {
    const { pages } = await pdfPages(readFileSync(JA_PDF));
    return [{ id: 'jh', title: 'japanese-holidays README', text: pages.join('\n\n'), chunks: chunkPages(pages) }];
  },
  (ask) => {
    // Its headings and paragraphs had been fenced as code: the range was refused.
    it('何年から何年の範囲で春分・秋分の日付を再現できていますか？ is answered', async () => {
      expect(await ask('何年から何年の範囲で春分・秋分の日付を再現できていますか？')).toContain('1600年～2399年');
    });

    // The change log's releases and what each changed are a nested list the PDF printed by indent.
    it('1.0.9 では何を直しましたか？ is answered with its sub-item', async () => {
      expect(await ask('1.0.9 では何を直しましたか？')).toContain('minify 版が壊れていたのを直しました');
    });

    // A sentence ending in a comma leads into the code after it.
    it('与えた時刻で日本の休日かどうか判定するには？ brings the code its sentence leads into', async () => {
      expect(await ask('与えた時刻で日本の休日かどうか判定するには？')).toContain('JapaneseHolidays.isHolidayAt(');
    });
  },
);

describeAnswersOver(
  'questions in Chinese over a Chinese PDF',
  async () => [{ id: 'nodejieba', title: 'nodejieba', text: (await pdfPages(readFileSync(PDF))).pages.join('\n\n') }],
  (ask) => {
    it.each([
      ['如何安装 nodejieba？', 'npm install nodejieba'],
      ['nodejieba 的全模式分词用哪个函数？', 'cutAll'],
    ])('%s', async (question, fact) => {
      expect(await ask(question)).toContain(fact);
    });
  },
);
