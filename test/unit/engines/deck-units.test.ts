import { describe, expect, it } from 'vitest';
import { buildDeck } from '../../../src/server/engines/slides/deck.js';
import { layoutDeck } from '../../../src/server/engines/slides/layout.js';
import { findNumberTables } from '../../../src/server/engines/slides/tables.js';
import { DEFAULT_THEMES } from '../../../src/server/engines/slides/themes.js';
import { writeDeck } from '../../../src/server/engines/slides/write.js';
import { slideXmls } from '../../helpers/deck-check.js';

// A benchmark table as READMEs write it: bold figures, thousands separators, a unit and a word after the number.
const BENCH = [
  '## Benchmarks',
  '',
  '| Library | Throughput | Compared with pino |',
  '| --- | --- | --- |',
  '| **pino** | **1,204,230** ops/sec | 1x |',
  '| bunyan | 310,112 ops/sec | 3.9x slower |',
  '| winston | 102,905 ops/sec | 11.7x slower |',
].join('\n');

// fast-uri's README benchmark: a box-drawing table inside a code block, with thousands in its cells.
const BOX = [
  '## Benchmarks',
  '',
  '```',
  'fast-uri benchmark',
  '┌─────────┬──────────────────────────┬──────────────────┐',
  '│ (index) │ Task name                │ Latency avg (ns) │',
  '├─────────┼──────────────────────────┼──────────────────┤',
  "│ 0       │ 'fast-uri: parse domain' │ '951.31 ± 0.75%' │",
  "│ 1       │ 'fast-uri: parse IPv4'   │ '1,443.44, 0.22%' │",
  "│ 2       │ 'fast-uri: parse IPv6'   │ '1,241.6, 1.74%' │",
  '└─────────┴──────────────────────────┴──────────────────┘',
  'name,latency,ops',
  'parse,951,1122538',
  'serialize,1028,1063310',
  'resolve,2208,495001',
  '```',
].join('\n');

describe('charts from the tables a document has', () => {
  it('a real table: categories are its row keys, series its numeric columns, figures as written, units as labels', () => {
    const [t, ...rest] = findNumberTables(BENCH);
    expect(rest).toEqual([]);
    expect(t.heading).toBe('Benchmarks');
    expect(t.categories).toEqual(['pino', 'bunyan', 'winston']);
    expect(t.series.map((s) => s.name)).toEqual(['Throughput (ops/sec)', 'Compared with pino (x slower)']);
    expect(t.series[0].values).toEqual([1204230, 310112, 102905]);
    expect(t.series[1].values).toEqual([1, 3.9, 11.7]);
  });

  it('a caption right above a table names its chart', () => {
    const [t] = findNumberTables(
      `## Results\n\n**Requests per second (higher is better)**\n\n${BENCH.split('\n').slice(2).join('\n')}`,
    );
    expect(t.heading).toBe('Requests per second (higher is better)');
  });

  it('a box-drawing table or comma-separated text in a code block is never charted', () => {
    expect(findNumberTables(BOX)).toEqual([]);
  });
});

const passage = (ref: number, content: string) => ({
  ref,
  resourceId: 'res_1',
  resourceTitle: 'Logger guide',
  section: 'Guide',
  content,
});

describe('deck text is runs PowerPoint wraps', () => {
  const outline = {
    title: 'Logging compared',
    subtitle: 'Based on 1 source',
    slides: [
      {
        title: 'Speed',
        points: [
          '**pino** is the fastest logger in the [benchmarks](https://example.com/bench) by a wide margin, whenever possible it defers work to a worker thread.',
          'Call `logger.child()` to bind fields ![badge](https://img.shields.io/badge/x.svg) to every line.',
        ],
        sources: [1],
      },
      { title: 'Levels', points: ['Levels are numbers: 30 is info and 50 is error.'], sources: [1] },
      { title: 'Transports', points: ['Transports run in a worker thread so the main loop stays free.'], sources: [1] },
    ],
    takeaways: [],
  };

  it('bold as bold, code in a monospace run, no Markdown marks, links or hard breaks; a takeaways slide ends it', async () => {
    const deck = buildDeck({
      outline,
      passages: [passage(1, 'pino is fast.')],
      tables: [],
      lang: 'en',
    });
    // Title, three content slides: four or more slides end on the takeaways.
    expect(deck.slides.at(-1)!.kind).toBe('closing');
    expect(deck.slides.at(-1)!.title).toBe('Key takeaways');
    const theme = DEFAULT_THEMES[0];
    const { slides } = await slideXmls(await writeDeck(layoutDeck(deck, theme), theme, { title: deck.title }));
    const xml = slides.join('');
    expect(xml).not.toMatch(/<a:br/);
    const text = [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join('\n');
    expect(text).not.toMatch(/\*\*|\]\(|!\[|shields\.io|`/);
    expect(text).toContain('by a wide margin, whenever possible it defers work');
    // "pino" is a bold run of its own; logger.child() a run in the monospace face.
    expect(xml).toMatch(/<a:rPr[^>]*\bb="1"[^>]*>(?:(?!<\/a:r>)[\s\S])*<a:t>pino<\/a:t>/);
    expect(xml).toMatch(/DejaVu Sans Mono(?:(?!<\/a:r>)[\s\S])*<a:t>logger\.child\(\)<\/a:t>/);
    // The recap leads each point with its slide's title, in bold.
    expect(slides.at(-1)).toMatch(/b="1"(?:(?!<\/a:r>)[\s\S])*<a:t>Levels<\/a:t>/);
  });

  it('a deck of three slides or fewer has no takeaways slide it does not need', () => {
    const deck = buildDeck({
      outline: { ...outline, slides: outline.slides.slice(0, 1) },
      passages: [passage(1, 'pino is fast.')],
      tables: [],
      lang: 'en',
    });
    expect(deck.slides.map((s) => s.kind)).toEqual(['title', 'points']);
  });
});
