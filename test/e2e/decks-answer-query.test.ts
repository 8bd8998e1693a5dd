import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { slideXmls } from '../helpers/deck-check.js';
import { isBoilerplate, isTableLike } from '../../src/server/engines/writer-text.js';

/**
 * Decks answer their query (issue 28): over realistic sources (a product article with navigation,
 * a cookie banner, a price table in two units and a footer; a refund policy; a Chinese guide), the
 * slides cover the query's topics in its order, the deck has exactly `--slides` content slides,
 * one chart slide per table whose charts each keep to one unit, and no bullet is furniture.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/documents');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

let p: Platform;
let out: string;
let ld: string;

beforeAll(async () => {
  p = await startPlatform();
  out = process.env.FACET_KEEP_DECKS ?? tempDir('decks');
  ld = okJson(await p.cli(['livedocs', 'create', 'Kettles', '--json'])).short_id;
  for (const [title, file] of [
    ['The Alder cast-iron kettle range', 'kettle-article.md'],
    ['Refund policy', 'refund-policy.md'],
    ['铸铁水壶使用指南', 'kettle-zh.md'],
  ]) {
    okJson(
      await p.cli(['livedocs', 'resources', 'add-doc', ld, '--title', title, '--content', fixture(file), '--json']),
    );
  }
}, 120_000);
afterAll(() => p?.cleanup());

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const paragraphs = (xml: string) =>
  (xml.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? [])
    .map((para) => decode((para.match(/<a:t>([^<]*)<\/a:t>/g) ?? []).map((t) => t.replace(/<\/?a:t>/g, '')).join('')))
    .filter(Boolean);

interface Deck {
  titles: string[];
  bullets: string[][];
  chartSlides: number[];
  charts: Array<{ slide: number; series: string[] }>;
}

async function makeDeck(query: string, slides: number, file: string): Promise<Deck> {
  const target = path.join(out, file);
  const r = okJson(
    await p.cli(
      [
        'slides',
        'create',
        query,
        '--livedoc',
        ld,
        '--slides',
        String(slides),
        '--wait',
        '--interval',
        '2',
        '--out',
        target,
        '--json',
      ],
      { timeout: 240_000 },
    ),
  );
  expect(r.task_status).toBe('COMPLETED');
  const { zip, slides: xmls } = await slideXmls(readFileSync(target));
  const deck: Deck = { titles: [], bullets: [], chartSlides: [], charts: [] };
  for (const [i, xml] of xmls.entries()) {
    const paras = paragraphs(xml);
    deck.titles.push(paras[0] ?? '');
    deck.bullets.push(paras.slice(1).filter((t) => !/^\d+$/.test(t)));
    const rels = (await zip.file(`ppt/slides/_rels/slide${i + 1}.xml.rels`)?.async('string')) ?? '';
    const chartFiles = [...rels.matchAll(/Target="[^"]*charts\/(chart\d+\.xml)"/g)].map((m) => m[1]);
    if (chartFiles.length > 0) deck.chartSlides.push(i);
    for (const c of chartFiles) {
      const cx = await zip.file(`ppt/charts/${c}`)!.async('string');
      const series = [...cx.matchAll(/<c:ser>[\s\S]*?<c:tx>[\s\S]*?<c:v>([^<]*)<\/c:v>/g)].map((m) => decode(m[1]));
      deck.charts.push({ slide: i, series });
    }
  }
  return deck;
}

/** A deck's content slides: all but the title slide and the closing takeaways. */
const content = (d: Deck) => d.titles.slice(1).filter((t) => t !== 'Key takeaways' && t !== '要点总结');
const unitOf = (series: string) => /\(([^)]+)\)\s*$/.exec(series)?.[1] ?? '';

function checkBullets(d: Deck) {
  for (const b of d.bullets.flat()) {
    expect(isBoilerplate(b), `boilerplate bullet: ${b}`).toBe(false);
    expect(isTableLike(b), `table header as bullet: ${b}`).toBe(false);
    expect(b).not.toMatch(/Model\s+Price|Page \d+ of|cookie|©|All rights reserved|Skip to content|Click here/i);
  }
  // No bullet says the same thing twice in a deck.
  const all = d.bullets.flat().filter((b) => b.length > 20);
  expect(new Set(all).size).toBe(all.length);
}

function checkCharts(d: Deck) {
  // One table, one chart slide: the fixture set has one table of numbers.
  expect(d.chartSlides.length).toBe(1);
  for (const c of d.charts)
    expect(new Set(c.series.map(unitOf)).size, `chart mixes units: ${c.series.join(', ')}`).toBe(1);
  // The two units of the price table are on separate charts of that one slide.
  expect(d.charts.map((c) => c.series.map(unitOf)[0]).sort()).toEqual(['USD', 'kg']);
}

describe('a deck answers its query', () => {
  it('prices, then heating and care, then warranty: topics in order, 4 content slides, one two-panel chart', async () => {
    const d = await makeDeck('Make a deck about kettle prices, heating and care, and the warranty', 4, 'prices.pptx');
    const titles = content(d);
    expect(titles).toHaveLength(4);
    const at = (re: RegExp) => titles.findIndex((t) => re.test(t));
    expect(at(/price/i)).toBeGreaterThanOrEqual(0);
    expect(at(/price/i)).toBeLessThan(at(/heating and care/i));
    expect(at(/heating and care/i)).toBeLessThan(at(/warranty/i));
    checkCharts(d);
    checkBullets(d);
  }, 300_000);

  it('refunds, damaged kettles and exchanges: topics in order, exactly 3 content slides', async () => {
    const d = await makeDeck('Refunds, damaged kettles and exchanges', 3, 'refunds.pptx');
    const titles = content(d);
    expect(titles).toHaveLength(3);
    expect(titles[0]).toMatch(/refund/i);
    expect(titles.findIndex((t) => /damaged/i.test(t))).toBeGreaterThan(titles.findIndex((t) => /refund/i.test(t)));
    expect(titles.findIndex((t) => /exchange/i.test(t))).toBeGreaterThan(titles.findIndex((t) => /damaged/i.test(t)));
    // The price table is not about refunds: it takes no slide of this deck.
    expect(d.chartSlides).toEqual([]);
    checkBullets(d);
  }, 300_000);

  it('a Chinese query picks the Chinese source and keeps its headings as titles', async () => {
    const d = await makeDeck('铸铁水壶的保养方法和退款政策', 3, 'zh.pptx');
    const titles = content(d);
    expect(titles).toHaveLength(3);
    expect(titles[0]).toContain('保养方法');
    expect(titles[1]).toContain('退款政策');
    for (const t of titles.filter((x) => !d.chartSlides.includes(d.titles.indexOf(x))))
      expect(t, `slide title not in Chinese: ${t}`).toMatch(/[\u4e00-\u9fff]/);
    checkBullets(d);
  }, 300_000);

  it('--slides 6 over the same sources splits sections, and an English deck never takes a Chinese section', async () => {
    const d = await makeDeck('Refund policy', 6, 'six.pptx');
    // The request names the refund policy, so the deck is the policy's four English sections (none
    // long enough to split in two): not the kettle article's warranty, which never speaks of
    // refunds, and not a slide from the Chinese guide (a reader of an English deck would find it broken).
    expect(content(d)).toHaveLength(4);
    expect(new Set(content(d)).size).toBe(4);
    for (const t of content(d)) expect(t).not.toMatch(/warranty|prices|heating/i);
    for (const t of content(d)) expect(t, `slide title in Chinese: ${t}`).not.toMatch(/[\u4e00-\u9fff]/);
    checkBullets(d);
  }, 300_000);
});
