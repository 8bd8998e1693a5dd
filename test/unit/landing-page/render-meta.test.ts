import { expect, it } from 'vitest';
import { renderPage } from '../../../src/server/engines/landing-page/render.js';

/** pinyin-pro's page with a tagline, nothing else. */
const pageWithTagline = (tagline: string) =>
  renderPage(
    {
      lang: 'zh-Hans',
      title: 'Pinyin-pro 拼音工具',
      tagline,
      summary: '',
      sections: [],
      keyNumbers: [],
      faq: [],
      sources: [],
      plannedBy: 'composer',
    },
    { livedocId: 'ld_test', generatedAt: '2026-12-06T00:00:00.000Z' },
  );

// A tagline quoted from pinyin-pro's README kept its Markdown link in the page's meta description:
// "…请查看[match API](pinyin-pro.cn/use/match.html) …".
it("the meta description is the tagline's words, a link as its text", () => {
  const html = pageWithTagline(
    '文本和拼音匹配，更多匹配规则请查看[match API](pinyin-pro.cn/use/match.html) 的 `match` 说明。',
  );
  expect(html).toContain(
    '<meta name="description" content="文本和拼音匹配，更多匹配规则请查看match API 的 match 说明。">',
  );
});

// pinyin-pro's tagline opens on `pinyin-pro`, a code span: the page's light code box on the hero's
// dark ground held white letters, unreadable (seen in the page's PNG).
it('a code span in the hero reads as white on a dark box', () => {
  const html = pageWithTagline('`pinyin-pro` 是一个专业的 js 汉字拼音转换库。');
  expect(html).toContain('<p class="tagline"><code>pinyin-pro</code>');
  expect(html).toMatch(/\.hero code\{color:#fff;background:rgba\(0,0,0,[.\d]+\)\}/);
});
