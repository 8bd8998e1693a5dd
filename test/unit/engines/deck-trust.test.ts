import { describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { wrapLines } from '../../../src/server/engines/slides/wrap.js';
import { layoutDeck } from '../../../src/server/engines/slides/layout.js';
import { DEFAULT_THEMES } from '../../../src/server/engines/slides/themes.js';
import { findNumberTables } from '../../../src/server/engines/slides/tables.js';
import { buildDeck } from '../../../src/server/engines/slides/deck.js';
import { localOutline } from '../../../src/server/engines/slides/outline-writer.js';
import { writeDeck } from '../../../src/server/engines/slides/write.js';
import { queryTopics } from '../../../src/server/engines/query-analysis.js';
import { isBoilerplate, isTableLike } from '../../../src/server/engines/writer-text.js';

const PRICES = `## Prices and weights

| Model | Price (USD) | Weight (kg) |
|---|---|---|
| Alder Mini | 89 | 1.8 |
| Alder Classic | 129 | 2.6 |
| Alder Grande | 179 | 3.9 |`;

describe('what a deck shows is what the sources say', () => {
  it('no line of Chinese starts with a closing mark', () => {
    const style = { family: 'Lato', bold: false, size: 20 } as const;
    const text = '收货后十四天内可以无理由退货，水壶须未使用并保留原包装。退款在五个工作日内退回原支付账户。';
    for (let w = 120; w < 700; w += 7)
      for (const line of wrapLines(text, w, style).slice(1))
        expect(line, `width ${w}`).not.toMatch(/^[，。、！？：；）」』]/u);
  });

  it('a table of two units is one chart slide with one chart per unit, labels at the source precision', async () => {
    const [table] = findNumberTables(PRICES);
    expect(table.series.map((s) => s.unit)).toEqual(['usd', 'kg']);
    const outline = {
      title: 'Kettles',
      subtitle: '',
      slides: [{ title: 'Prices and weights', points: ['All prices include sales tax.'], sources: [1] }],
      takeaways: [],
    };
    const passages = [
      {
        ref: 1,
        resourceId: 'res_1',
        resourceTitle: 'Kettles',
        section: 'Prices and weights',
        content: 'All prices include sales tax.',
      },
    ];
    const tables = [{ resourceId: 'res_1', resourceTitle: 'Kettles', table }];
    const deck = buildDeck({ outline, passages, tables, lang: 'en' });
    expect(deck.slides.filter((s) => s.kind === 'chart')).toHaveLength(1);
    // The chart slide is not titled like the points slide before it.
    expect(new Set(deck.slides.map((s) => s.title)).size).toBe(deck.slides.length);
    const laid = layoutDeck(deck, DEFAULT_THEMES[0]);
    const chartSlide = laid.find((s) => s.kind === 'chart')!;
    expect(chartSlide.charts!.map((c) => c.spec.series.map((s) => s.unit))).toEqual([['usd'], ['kg']]);
    const zip = await JSZip.loadAsync(await writeDeck(laid, DEFAULT_THEMES[0], { title: 'Kettles' }));
    const xml = await Promise.all(
      Object.keys(zip.files)
        .filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n))
        .sort()
        .map((n) => zip.file(n)!.async('string')),
    );
    expect(xml).toHaveLength(2);
    expect(xml.join('\n')).toMatch(/<c:dLbls>[\s\S]*?formatCode="#,##0\.0"/);
  });

  it('the same table found twice is one chart', () => {
    const [t] = findNumberTables(PRICES);
    const outline = {
      title: 'K',
      subtitle: '',
      slides: [{ title: 'A', points: ['x is y.'], sources: [] }],
      takeaways: [],
    };
    const deck = buildDeck({
      outline,
      passages: [],
      tables: [
        { resourceId: 'r1', resourceTitle: 'K', table: t },
        { resourceId: 'r2', resourceTitle: 'K copy', table: t },
      ],
      lang: 'en',
    });
    expect(deck.slides.filter((s) => s.kind === 'chart')).toHaveLength(1);
  });
});

describe('the takeaways slide', () => {
  it('recaps a section split over slides once, by its own title', () => {
    const outline = {
      title: 'Kettles',
      subtitle: '',
      slides: [
        { title: 'Refunds (1/2)', points: ['Refunds take five days.'], sources: [] },
        { title: 'Refunds (2/2)', points: ['Refunds go to the card used.'], sources: [] },
        { title: '退款（1/2）', points: ['退款在五个工作日内退回。'], sources: [] },
        { title: 'Warranty', points: ['Every kettle carries a 25-year warranty.'], sources: [] },
      ],
      takeaways: [],
    };
    const deck = buildDeck({ outline, passages: [], tables: [], lang: 'en' });
    const closing = deck.slides.at(-1)!;
    expect(closing.kind === 'closing' && closing.points).toEqual([
      '**Refunds**: Refunds take five days.',
      '**退款**: 退款在五个工作日内退回。',
      '**Warranty**: Every kettle carries a 25-year warranty.',
    ]);
  });
});

describe('the local outline follows the query', () => {
  const passages = [
    {
      ref: 1,
      title: 'Kettles',
      source: 'a',
      content:
        'Home · Shop · Kettles · Blog\n\n## Warranty\n\nEvery kettle carries a 25-year warranty. Rust from standing water is not covered.\n\n## Prices\n\n| Model | Price (USD) |\n|---|---|\n| Mini | 89 |\n\nModel Price Weight\n\nAll prices include sales tax. Orders over $150 ship free.\n\nPage 1 of 2\n\n© 2026 Alder Ltd. All rights reserved.',
    },
    {
      ref: 2,
      title: 'Refunds',
      source: 'b',
      content:
        'Returns within 14 days are accepted. Refunds are paid within 5 business days. We use cookies to improve your experience.',
    },
  ];
  it('topics in the order asked, exactly the slides asked, no furniture or header bullets', () => {
    const o = localOutline({ query: 'Make a deck about prices, the warranty and refunds', passages, maxSlides: 3 });
    expect(o.title).toBe('Prices, the warranty and refunds');
    expect(o.slides.map((s) => s.title)).toEqual(['Prices', 'Warranty', 'Refunds']);
    for (const p of o.slides.flatMap((s) => s.points)) expect(p).not.toMatch(/Home ·|Page 1|©|cookies|^Model Price/);
  });
  it('splits a section when the sources have fewer sections than slides asked', () => {
    const o = localOutline({
      query: 'refunds',
      passages: [
        {
          ref: 1,
          title: 'Refunds',
          content: 'One is a thing said. Two is a thing said. Three is a thing said. Four is a thing said.',
        },
      ],
      maxSlides: 2,
    });
    expect(o.slides.map((s) => s.title)).toEqual(['Refunds (1/2)', 'Refunds (2/2)']);
  });
  it("keeps to the query's language while it has material, and uses another only when it has none", () => {
    const passages = [
      { ref: 1, title: 'Refunds', content: 'Refunds take five days. Refunds go to the card used.' },
      { ref: 2, title: '退款政策', content: '收货后十四天内可以无理由退货。退款在五个工作日内退回原支付账户。' },
    ];
    const english = localOutline({ query: 'refunds', passages, maxSlides: 3 });
    expect(english.slides.map((s) => s.title)).toEqual(['Refunds']);
    const onlyChinese = localOutline({ query: 'refunds', passages: passages.slice(1), maxSlides: 3 });
    expect(onlyChinese.slides.map((s) => s.title)).toEqual(['退款政策']);
  });
});

describe('query topics and furniture', () => {
  it('splits a request into its topics, in order', () => {
    expect(queryTopics('Make a deck about kettle prices, heating and the warranty?')).toEqual([
      'kettle prices',
      'heating',
      'warranty',
    ]);
    expect(queryTopics('铸铁水壶的保养方法和退款政策')).toEqual(['保养方法', '退款政策']);
  });
  it('knows furniture and table headers from prose', () => {
    for (const s of [
      'We use cookies to improve your experience. Accept all cookies',
      '© 2026 Alder Ltd. All rights reserved.',
      'Page 3 of 12',
      'Home · Shop · Kettles · Blog',
      'Privacy · Terms · Cookies',
      'Click here to read our terms.',
    ])
      expect(isBoilerplate(s), s).toBe(true);
    for (const s of ['Model Price (USD) Weight (kg)', 'Model\tPrice\tWeight']) expect(isTableLike(s), s).toBe(true);
    for (const s of [
      'Returns within 14 days of delivery are accepted.',
      'Every batch is 12 kg of recycled iron.',
      'Free shipping on orders over $150',
    ])
      expect(isBoilerplate(s) || isTableLike(s), s).toBe(false);
  });
});
