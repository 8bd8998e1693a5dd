import { describe, expect, it } from 'vitest';
import { linePitch, textWidth, type TextStyle } from '../../../src/server/engines/slides/fonts.js';
import { shortenToLines, wrapLines } from '../../../src/server/engines/slides/wrap.js';
import { frameFits, innerWidth, layoutDeck, textHeight } from '../../../src/server/engines/slides/layout.js';
import { DEFAULT_THEMES } from '../../../src/server/engines/slides/themes.js';
import { findNumberTables, parseNumber } from '../../../src/server/engines/slides/tables.js';
import { localOutline } from '../../../src/server/engines/slides/outline-writer.js';
import { generateOutline, OutlineInvalid } from '../../../src/server/engines/slides/outline.js';
import { writeDeck } from '../../../src/server/engines/slides/write.js';
import type { DeckModel } from '../../../src/server/engines/slides/model.js';
import type { GenerateRequest, ModelGateway } from '../../../src/server/engines/gateway-types.js';
import { measureFrames, slideXmls } from '../../helpers/deck-check.js';

const body: TextStyle = { family: 'Lato', bold: false, size: 20 };
const long = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ['solar', 'capacity', 'grew', 'quickly', 'across', 'southern', 'regions', 'because'][i % 8],
  ).join(' ') + '.';

describe('text measurement and line breaking', () => {
  it('measures with the font files: wider text, bold and bigger sizes measure wider', () => {
    expect(textWidth('MMMM', body)).toBeGreaterThan(textWidth('iiii', body));
    expect(textWidth('Revenue', { ...body, bold: true })).toBeGreaterThan(textWidth('Revenue', body));
    expect(textWidth('Revenue', { ...body, size: 40 })).toBeCloseTo(2 * textWidth('Revenue', body), 5);
    // CJK falls back to WenQuanYi Micro Hei: about one em per character.
    expect(textWidth('年度回顾', body)).toBeGreaterThan(4 * 20 * 0.9);
    expect(linePitch(body)).toBeGreaterThanOrEqual(20 * 1.15);
  });

  it('breaks lines that each fit the width, Latin at spaces and CJK anywhere', () => {
    for (const text of [
      long(80),
      '新市场的收入增长了百分之二十四，超过年初目标。'.repeat(6),
      'Supercalifragilisticexpialidocious'.repeat(8),
    ]) {
      const lines = wrapLines(text, 300, body);
      expect(lines.length).toBeGreaterThan(1);
      for (const l of lines) expect(textWidth(l, body)).toBeLessThanOrEqual(300);
      expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    }
  });

  it('shortens a text to a number of lines with an ellipsis that fits', () => {
    const lines = shortenToLines(long(120), 300, body, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith('…')).toBe(true);
    for (const l of lines) expect(textWidth(l, body)).toBeLessThanOrEqual(300);
  });
});

describe('layout never lets text overflow its frame', () => {
  const crowded: DeckModel = {
    title: long(40),
    lang: 'en',
    slides: [
      { kind: 'title', title: long(40), subtitle: long(30), citations: [] },
      { kind: 'points', title: long(30), points: Array.from({ length: 12 }, () => long(45)), citations: [] },
      {
        kind: 'points',
        title: '一个很长的中文标题'.repeat(8),
        points: Array.from({ length: 6 }, () => '交付周期从六周缩短到三周，'.repeat(12)),
        citations: [],
      },
      { kind: 'points', title: 'One point', points: [long(400)], citations: [] },
    ],
  };

  it.each(DEFAULT_THEMES.map((t) => [t.id, t] as const))(
    '%s: every frame holds its measured lines; crowded slides are split, long texts shortened',
    (_id, theme) => {
      const laid = layoutDeck(crowded, theme);
      for (const s of laid) for (const f of s.frames) expect(frameFits(f), `${s.title}: ${f.role}`).toBe(true);
      // Twelve long points do not fit one slide: they continue on more slides, none lost.
      const first = laid.filter((s) => s.title === crowded.slides[1].title);
      expect(first.length).toBeGreaterThan(1);
      expect(first.reduce((n, s) => n + s.frames[1].paragraphs.length, 0)).toBe(12);
      expect(first[1].frames[0].paragraphs[0].join(' ')).toMatch(/\(cont\.\)$|…$/);
      // A title is at most two lines; a 400-word point is cut short with an ellipsis.
      for (const s of laid.filter((x) => x.kind !== 'title'))
        expect(s.frames[0].paragraphs[0].length).toBeLessThanOrEqual(2);
      const lone = laid.find((s) => s.title === 'One point')!;
      expect(lone.frames[1].paragraphs[0].at(-1)!.endsWith('…')).toBe(true);
    },
  );

  it('the written deck, read back from its XML, has no line wider or frame taller than measured, and no autofit', async () => {
    const theme = DEFAULT_THEMES.find((t) => t.id === 'paper')!;
    const pptx = await writeDeck(layoutDeck(crowded, theme), theme, { title: 't' });
    const frames = await measureFrames(pptx);
    expect(frames.length).toBeGreaterThan(8);
    for (const f of frames) {
      expect(f.widestLine, f.text).toBeLessThanOrEqual(f.available);
      expect(f.height, f.text).toBeLessThanOrEqual(f.frameHeight + 0.01);
    }
    const { slides } = await slideXmls(pptx);
    const xml = slides.join('');
    expect(xml).not.toMatch(/normAutofit|spAutoFit/);
    // A point is one paragraph PowerPoint wraps itself: no line breaks of facet's.
    expect(xml).not.toMatch(/<a:br/);
  });

  it('a frame is exactly as tall as its lines at the exact pitch, plus spacing and insets', () => {
    const laid = layoutDeck(crowded, DEFAULT_THEMES[0]);
    const f = laid[1].frames[1];
    expect(textHeight(f)).toBeLessThanOrEqual(f.h + 0.01);
    expect(innerWidth(f)).toBeLessThan(f.w);
  });
});

describe('tables of numbers', () => {
  it('finds Markdown and CSV tables with a label column and numeric columns', () => {
    const md =
      '## Revenue\n\n| Quarter | Revenue | Costs |\n|---|---|---|\n| Q1 | 1,200 | 800 |\n| Q2 | 1,500 | 900 |\n| Q3 | $1,650 | (100) |\n';
    const csv = 'city,population\nOslo,709000\nBergen,291000\nTrondheim,212000\n';
    const [a] = findNumberTables(md);
    expect(a).toEqual({
      heading: 'Revenue',
      categories: ['Q1', 'Q2', 'Q3'],
      series: [
        { name: 'Revenue', values: [1200, 1500, 1650], unit: '' },
        { name: 'Costs', values: [800, 900, -100], unit: '' },
      ],
    });
    const [b] = findNumberTables(csv);
    expect(b.series[0]).toEqual({ name: 'population', values: [709000, 291000, 212000], unit: '' });
    expect(findNumberTables('| a | b |\n|---|---|\n| x | y |\n| z | w |\n')).toEqual([]);
    expect(parseNumber('12%')).toBe(12);
    expect(parseNumber('n/a')).toBeNull();
  });
});

describe('the outline', () => {
  const passages = [
    {
      ref: 1,
      title: 'Solar in Spain',
      source: 'res_a',
      content:
        'Spain installed more solar capacity than any other European country in 2023. Cheap land keeps solar farms cheap.',
    },
    {
      ref: 2,
      title: 'Batteries',
      source: 'res_b',
      content:
        'Batteries move solar energy from the afternoon into the evening peak. Pumped hydro still holds most stored energy.',
    },
    {
      ref: 3,
      title: 'Jobs',
      source: 'res_c',
      content:
        'Solar construction created forty thousand jobs in rural Spain. Councils receive land rents from solar projects.',
    },
  ];

  it('the local writer builds it from the passages: their sentences as points, their refs as sources, at most maxSlides', () => {
    const o = localOutline({ query: 'How is solar power changing Spain?', passages, maxSlides: 2 });
    expect(o.title).toBe('How is solar power changing Spain');
    // The sources its two slides cite.
    expect(o.subtitle).toBe('Based on 2 sources');
    expect(o.slides).toHaveLength(2);
    const all = passages.map((p) => p.content).join(' ');
    for (const s of o.slides) {
      for (const point of s.points) expect(all).toContain(point.replace(/…$/, ''));
      expect(s.sources.every((r) => [1, 2, 3].includes(r))).toBe(true);
    }
    expect(localOutline({ query: 'How is solar power changing Spain?', passages, maxSlides: 2 })).toEqual(o);
  });

  it('a short note with no sentence of three words still makes its slide, from what it says (never code)', () => {
    const note = { ref: 1, title: 'Harbour', source: 'r1', content: 'Green light.\n\n```\nx = 1;\n```' };
    const o = localOutline({ query: 'Harbour', passages: [note], maxSlides: 8 });
    expect(o.slides.map((s) => s.points)).toEqual([['Green light.']]);
    // With a whole sentence present, fragments stay out.
    const fuller = { ...note, content: 'Green light. The harbour opens at dawn for every boat.' };
    expect(
      localOutline({ query: 'Harbour', passages: [fuller], maxSlides: 8 }).slides.flatMap((s) => s.points),
    ).toEqual(['The harbour opens at dawn for every boat.']);
  });

  it('keeps decimals inside a point and splits Chinese sentences at their full stops', () => {
    const o = localOutline({
      query: 'capacity 容量',
      passages: [
        {
          ref: 1,
          title: 'Capacity',
          source: 'r1',
          content: 'Capacity reached 25.5 GW in 2023, up from 19.8 GW. Capacity doubled since 2020.',
        },
        { ref: 2, title: '容量', source: 'r2', content: '容量在二零二三年达到新高。容量增长来自南部地区。' },
      ],
      maxSlides: 4,
    });
    const points = o.slides.flatMap((s) => s.points);
    expect(points).toContain('Capacity reached 25.5 GW in 2023, up from 19.8 GW.');
    expect(points).toContain('容量在二零二三年达到新高。');
    expect(points).toContain('容量增长来自南部地区。');
  });

  const gatewayAnswering = (text: string): ModelGateway => ({
    generate: async () => ({
      model: 'm',
      text,
      stopReason: 'end',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, webSearches: 0 },
      costUsd: 0,
    }),
    stream: () => {
      throw new Error('unused');
    },
  });
  const input = {
    query: 'q',
    passages: passages.map((p) => ({
      ref: p.ref,
      resourceId: p.source,
      resourceTitle: p.title,
      section: p.title,
      content: p.content,
    })),
    maxSlides: 3,
    lang: 'en' as const,
    scope: { apiKeyId: null, userId: 'u', operation: 'slides.outline' },
  };

  it("reads an upstream model's JSON even inside prose, and drops refs that name no passage", async () => {
    const reply =
      'Here it is:\n```json\n{"title":"T","subtitle":"S","slides":[{"title":"A","points":["p"],"sources":[1,9]}],"takeaways":[]}\n```';
    const { outline } = await generateOutline(gatewayAnswering(reply), input);
    expect(outline.slides[0].sources).toEqual([1]);
  });

  /** A gateway answering each call with the next reply, recording the messages it was sent. */
  const gatewayReplying = (replies: string[], sent: GenerateRequest[]): ModelGateway => ({
    generate: async (request) => {
      sent.push(request);
      return gatewayAnswering(replies[sent.length - 1] ?? '').generate(request);
    },
    stream: () => {
      throw new Error('unused');
    },
  });

  it("repairs a model's malformed JSON (trailing commas, single quotes, a cut-off end) without asking again", async () => {
    const sent: GenerateRequest[] = [];
    const reply = "{'title': 'T', 'slides': [{'title': 'A', 'points': ['p',], 'sources': [1],},], 'takeaways': [";
    const { outline } = await generateOutline(gatewayReplying([reply], sent), input);
    expect(outline.slides[0]).toEqual({ title: 'A', points: ['p'], sources: [1] });
    expect(sent).toHaveLength(1);
  });

  it('asks once more, saying what was wrong, when a reply cannot be used; then fails saying why', async () => {
    const sent: GenerateRequest[] = [];
    const good = '{"title":"T","slides":[{"title":"A","points":["p"],"sources":[1]}]}';
    const { outline } = await generateOutline(gatewayReplying(['{"title":"T","slides":[]}', good], sent), input);
    expect(outline.title).toBe('T');
    expect(sent).toHaveLength(2);
    expect(sent[1].messages.at(-1)!.content).toMatch(/could not be used: .*slides/);

    const twice: GenerateRequest[] = [];
    await expect(generateOutline(gatewayReplying(['no', 'still no'], twice), input)).rejects.toThrow(
      /asked twice: the reply holds no JSON object/,
    );
    expect(twice).toHaveLength(2);
  });

  it('refuses a reply that is not an outline', async () => {
    await expect(generateOutline(gatewayAnswering('I cannot help with that.'), input)).rejects.toBeInstanceOf(
      OutlineInvalid,
    );
    await expect(generateOutline(gatewayAnswering('{"title":"T","slides":[]}'), input)).rejects.toBeInstanceOf(
      OutlineInvalid,
    );
  });
});
