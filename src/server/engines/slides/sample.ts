import type { DeckModel } from './model.js';

/**
 * The sample deck every theme is previewed with (docs/gallery/theme-<id>.png and the theme list's
 * preview pictures): a title, a points slide, a chart and the takeaways — each kind of slide once.
 */
export function sampleDeck(lang: 'en' | 'zh-Hans'): DeckModel {
  const cite = [
    {
      ref: 1,
      resourceId: 'res_sample',
      title: lang === 'zh-Hans' ? '年度报告' : 'Annual report',
      passage: 'Sample passage.',
    },
  ];
  if (lang === 'zh-Hans') {
    return {
      title: '年度回顾',
      lang,
      slides: [
        { kind: 'title', title: '年度回顾：增长与展望', subtitle: '基于 3 个来源', citations: [] },
        {
          kind: 'points',
          title: '今年的三项进展',
          points: [
            '新市场的收入增长了百分之二十四，超过年初目标。',
            '客户满意度连续四个季度上升。',
            '交付周期从六周缩短到三周。',
          ],
          citations: cite,
        },
        {
          kind: 'chart',
          title: '季度收入',
          chart: {
            type: 'bar',
            categories: ['第一季度', '第二季度', '第三季度', '第四季度'],
            series: [{ name: '收入', values: [42, 48, 55, 61] }],
            caption: '来源：年度报告',
          },
          citations: cite,
        },
        {
          kind: 'closing',
          title: '要点总结',
          points: ['增长来自新市场。', '更短的交付周期提升了满意度。'],
          citations: cite,
        },
      ],
    };
  }
  return {
    title: 'Year in review',
    lang,
    slides: [
      { kind: 'title', title: 'Year in review: growth and outlook', subtitle: 'Based on 3 sources', citations: [] },
      {
        kind: 'points',
        title: 'Three things that moved this year',
        points: [
          'Revenue from new markets grew 24 percent, ahead of the plan set in January.',
          'Customer satisfaction rose for the fourth quarter in a row.',
          'Lead time fell from six weeks to three after the new warehouse opened.',
        ],
        citations: cite,
      },
      {
        kind: 'chart',
        title: 'Revenue by quarter',
        chart: {
          type: 'bar',
          categories: ['Q1', 'Q2', 'Q3', 'Q4'],
          series: [{ name: 'Revenue (M$)', values: [42, 48, 55, 61] }],
          caption: 'Source: Annual report',
        },
        citations: cite,
      },
      {
        kind: 'closing',
        title: 'Key takeaways',
        points: ['Growth came from new markets.', 'Shorter lead times lifted satisfaction.'],
        citations: cite,
      },
    ],
  };
}
