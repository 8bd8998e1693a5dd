import { readFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { localOutline, type OutlinePassage } from '../../../src/server/engines/slides/outline-writer.js';
import { pointRuns, runsText } from '../../../src/server/engines/slides/runs.js';
import { buildDeck } from '../../../src/server/engines/slides/deck.js';
import { findNumberTables } from '../../../src/server/engines/slides/tables.js';
import { layoutDeck } from '../../../src/server/engines/slides/layout.js';
import { writeDeck } from '../../../src/server/engines/slides/write.js';
import { DEFAULT_THEMES } from '../../../src/server/engines/slides/themes.js';
import { looksLikeCode } from '../../../src/server/text/statements.js';

// Excerpts of documents nobody on the project wrote, as extraction gives them: winston 3.19.0's
// README.md (MIT) and debug 4.4.3's README.md (MIT); pino 10.4.0's docs/benchmarks.md is read
// from the content benchmark's corpus (bench/content/docs, sources in bench/content/SOURCES.md).
const WINSTON_LEVELS = `## Logging Levels

Logging levels in \`winston\` conform to the severity ordering specified by
[RFC5424]: _severity of all levels is assumed to be numerically **ascending**
from most important to least important._

Each \`level\` is given a specific integer priority. The higher the priority the
more important the message is considered to be, and the lower the
corresponding integer priority.  For example, as specified exactly in RFC5424
the \`syslog\` levels are prioritized from 0 to 7 (highest to lowest).

Similarly, \`npm\` logging levels are prioritized from 0 to 6 (highest to
lowest):

\`\`\` js
{
  error: 0,
  warn: 1,
  info: 2
}
\`\`\``;

// The same README's usage as a PDF or an old DOCX gives it: the code block as plain paragraphs.
const WINSTON_USAGE_AS_TEXT = `## Usage

The recommended way to use winston is to create your own logger. The simplest way to do this is using winston.createLogger:

If we're not in production then log to the console with the format:

logger.add(new winston.transports.Console({

format: winston.format.simple(),

}));

You may also log to a file by adding a transport.`;

const DEBUG_HEAD = `# debug
[![OpenCollective](https://opencollective.com/debug/backers/badge.svg)](#backers)
[![OpenCollective](https://opencollective.com/debug/sponsors/badge.svg)](#sponsors)

<img width="647" src="https://user-images.githubusercontent.com/71256/29091486-fa38524c-7c37-11e7-895f-e7ec8e1039b6.png">

A tiny JavaScript debugging utility modelled after Node.js core's debugging
technique. Works in Node.js and web browsers.

## Installation

\`\`\`bash
$ npm install debug
\`\`\`

## Usage

\`debug\` exposes a function; simply pass this function the name of your module, and it will return a decorated version of \`console.error\` for you to pass debug statements to. This will allow you to toggle the debug output for different parts of your module as well as the module as a whole.

- [Pino with Fastify](docs/web.md#fastify)
- [Pino with Express](docs/web.md#express)`;

const passage = (ref: number, title: string, content: string): OutlinePassage => ({
  ref,
  title,
  content,
  source: `r${ref}`,
});
const points = (o: ReturnType<typeof localOutline>) => [...o.slides.flatMap((s) => s.points), ...o.takeaways];

describe('deck points are whole statements of the sources', () => {
  it('never a line of code, even when extraction gave the code as paragraphs', () => {
    const o = localOutline({
      query: 'How do I add a console transport to winston?',
      passages: [passage(1, 'Usage', WINSTON_USAGE_AS_TEXT), passage(2, 'Logging Levels', WINSTON_LEVELS)],
      maxSlides: 3,
    });
    const all = points(o);
    expect(all.length).toBeGreaterThan(0);
    for (const p of all) {
      expect(p).not.toMatch(/logger\.add|format: winston|^\}\)\);|error: 0/);
      expect(looksLikeCode(p), p).toBe(false);
    }
  });

  it('never a badge, an image, raw HTML or a list of links', () => {
    const o = localOutline({ query: 'What is debug?', passages: [passage(1, 'debug', DEBUG_HEAD)], maxSlides: 3 });
    const all = points(o);
    expect(all).toContain("A tiny JavaScript debugging utility modelled after Node.js core's debugging technique.");
    for (const p of all) expect(p).not.toMatch(/OpenCollective|!\[|<img|Pino with|npm install/);
  });

  it('never a sentence cut short: a sentence too long is left out, one broken across lines is whole', () => {
    const o = localOutline({
      query: 'What are the winston logging levels?',
      passages: [passage(1, 'Logging Levels', WINSTON_LEVELS)],
      maxSlides: 2,
    });
    const all = points(o);
    expect(all.length).toBeGreaterThan(0);
    for (const p of all) {
      expect(p).not.toMatch(/…$/);
      expect(p).toMatch(/[.!?]$/);
      // Markup is read as markup (bold and code runs), characters kept: the slide shows no marks.
      expect(runsText(pointRuns(p))).not.toMatch(/[*_`]/);
    }
    expect(all).not.toContain('Similarly, npm logging levels are prioritized from 0 to 6 (highest to');
  });

  it('titles come once each: a Chinese deck on an English document never repeats "（续）"', () => {
    const lts = readFileSync(path.resolve(import.meta.dirname, '../../../node_modules/pino/docs/lts.md'), 'utf8');
    const sections = lts.split(/\n(?=#{2,3} )/).map((part, i) => passage(i + 1, 'Long Term Support', part));
    const o = localOutline({ query: 'pino 的长期支持和安全发布', passages: sections, maxSlides: 6 });
    const titles = o.slides.map((s) => s.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const t of titles) expect(t).not.toMatch(/（续）|\(continued\)/);
  });
});

describe('a table of numbers becomes a native chart', () => {
  it("pino's benchmark averages (name: figure lines in a code block) are charted in the .pptx", async () => {
    const md = readFileSync(
      path.resolve(import.meta.dirname, '../../../bench/content/docs/pino-benchmarks.md'),
      'utf8',
    );
    const tables = findNumberTables(md);
    expect(tables.length).toBeGreaterThan(0);
    const basic = tables.find((t) => t.heading === 'BASIC benchmark averages')!;
    expect(basic.categories).toContain('Pino average');
    expect(basic.series[0].unit).toBe('ms');
    const outline = {
      title: 'Pino benchmarks',
      subtitle: '',
      slides: [{ title: 'Benchmarks', points: ['Pino is faster than the alternatives.'], sources: [1] }],
      takeaways: [],
    };
    const passages = [{ ref: 1, resourceId: 'res_1', resourceTitle: 'Benchmarks', section: 'Benchmarks', content: md }];
    const deck = buildDeck({
      outline,
      passages,
      tables: [{ resourceId: 'res_1', resourceTitle: 'Benchmarks', table: basic }],
      lang: 'en',
    });
    const laid = layoutDeck(deck, DEFAULT_THEMES[0]);
    const zip = await JSZip.loadAsync(await writeDeck(laid, DEFAULT_THEMES[0], { title: 'Pino' }));
    const charts = Object.keys(zip.files).filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n));
    expect(charts.length).toBe(1);
    const xml = await zip.file(charts[0])!.async('string');
    expect(xml).toContain('Pino average');
    expect(xml).toContain('114.801');
  });

  it('reads figures with units in cells ("11,083,134 ops/sec", "306.41 KB (gzip 134.52 KB)") and keeps units apart', () => {
    const [t] = findNumberTables(
      '| Benchmark | Speed | Error | Samples |\n| --- | --- | --- | --- |\n| NodeBuffer#copy(16) | 11,083,134 ops/sec | ±1.06% | 89 |\n| BrowserBuffer#new(16000) | 141,678 ops/sec | ±3.30% | 67 |\n| Uint8Array#new(16000) | 161,491 ops/sec | ±2.96% | 60 |',
    );
    expect(t.series.map((s) => [s.name, s.unit])).toEqual([
      ['Speed (ops/sec)', 'ops/sec'],
      ['Error', '%'],
      ['Samples', ''],
    ]);
    expect(t.series[0].values).toEqual([11083134, 141678, 161491]);
    // Dates and versions are not figures.
    expect(
      findNumberTables('| Version | End Of LTS |\n| --- | --- |\n| 8.x | 2024-10-26 |\n| 7.x | 2023-06-01 |'),
    ).toEqual([]);
  });
});
