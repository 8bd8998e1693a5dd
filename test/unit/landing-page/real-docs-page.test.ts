import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { keyNumbers, type PagePassage } from '../../../src/server/engines/landing-page/text.js';
import { isCodeProse } from '../../../src/server/engines/landing-page/planner.js';
import { DEFAULT_CHROMIUM } from '../../../src/server/engines/screenshot.js';
import { parseOutline } from '../../../src/server/engines/mindmap/tree.js';
import { extractiveOutline } from '../../../src/server/engines/outline-writer.js';
import { localLandingPage, readmePassages } from '../../helpers/landing-docs.js';

// pino 10.4.0's README.md (MIT), read as the engines read a LiveDoc: its chunks, one passage each.
const passages = readmePassages(path.resolve(import.meta.dirname, '../../../node_modules/pino/README.md'), {
  ref: 1,
  resourceId: 'res_pino',
  title: 'pino',
  link: 'https://github.com/pinojs/pino/blob/main/README.md',
});

// A passage as a PDF or DOCX gives code: a JSON log line and a server call as paragraphs.
const AS_TEXT: PagePassage = {
  ref: 2,
  resourceId: 'res_web',
  title: 'Web frameworks',
  section: 'Pino with Express',
  content:
    'This produces:\n\n{"level":30,"time":1531171082399,"msg":"hello child!","pid":657,"hostname":"Davids-MBP-3.fritz.box"}\n\napp.listen(3000)\n\nThe server listens on port 3000 by default. In many cases, Pino is over 5x faster than alternatives. Run `node server.js --port 8080` to change it. Logs go to https://logs.example.com/very/long/path/to/the/collector/endpoint/for/production/servers/and/workers by default, and `pino.destination({dest:"/var/log/app/production-servers-and-workers.log",sync:false})` writes them to a file.',
  link: '',
};

describe('key figures are quantities stated in prose', () => {
  it('never a timestamp, an id, a port or a figure from code or a log line', () => {
    const figures = keyNumbers([...passages, AS_TEXT], 12);
    const values = figures.map((k) => k.value);
    for (const bad of ['1531171082399', '1531171074631', '657', '30', '3000', '8080'])
      expect(values).not.toContain(bad);
    for (const k of figures) expect(k.label).not.toMatch(/^\{|"level"|listen\(/);
    expect(figures).toContainEqual(
      expect.objectContaining({ value: '5x', label: 'In many cases, Pino is over 5x faster than alternatives.' }),
    );
  });
});

describe('page prose is never code', () => {
  it('tells code from a sentence, also after an introduction (buffer 5.7.1 README, as its PDF reads)', () => {
    expect(
      isCodeProse(
        'To convert a Buffer to an ArrayBuffer, use the .buffer property (which is present on all Uint8Array objects): var arrayBuffer = buffer.buffer.slice( buffer.byteOffset, buffer.byteOffset + buffer.byteLength ).',
      ),
    ).toBe(true);
    expect(
      isCodeProse("With browserify, simply require('buffer') or use the Buffer global and you will get this module."),
    ).toBe(false);
    expect(isCodeProse('Note: the `DEBUG=*` setting enables every namespace.')).toBe(false);
    // Lines of a code block the writer quotes as spans (winston's README): no words of their own.
    expect(
      isCodeProse(
        "`transports: [new winston.transports.Console({ forceConsole: true })]` `format: winston.format.json()` `console: new winston.transports.Console({ level: 'warn' }),`",
      ),
    ).toBe(true);
  });
});

describe("mindmap labels keep the sources' characters", () => {
  it('drops Markdown marks as markup, never `*`, `_` or backticks that are content', () => {
    const tree = parseOutline(
      '# debug\n\n- Enable all with `DEBUG=*`\n- Use **bold** and snake_case_names\n- Match *.js files',
      'debug',
    );
    expect(tree.children.map((c) => c.text)).toEqual([
      'Enable all with DEBUG=*',
      'Use bold and snake_case_names',
      'Match *.js files',
    ]);
  });
});

const executablePath = process.env.FACET_CHROMIUM ?? DEFAULT_CHROMIUM;

describe.skipIf(!existsSync(executablePath))('a landing page from a real README', () => {
  let html = '';
  beforeAll(async () => {
    ({ html } = await localLandingPage('Make a landing page about pino, the fast JSON logger', [
      ...passages.slice(0, 10),
      AS_TEXT,
    ]));
  }, 60_000);

  it('shows no Markdown marks', () => {
    const text = html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ');
    expect(text).not.toMatch(/\*\*|^\s*#{1,6}\s|`/m);
    expect(text).not.toMatch(/\]\(/);
  });

  it('has no section its sources do not back: every card cites one', () => {
    const cards = html.match(/<article class="card[^"]*">[\s\S]*?<\/article>/g) ?? [];
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card).toContain('class="cite"');
  });

  it('shows prose, never code as a paragraph or a tagline', () => {
    const text = html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<code>[\s\S]*?<\/code>/g, ' ');
    expect(text).not.toMatch(/require\(|\bconst \w+ =|\.listen\(|"level":/);
  });

  it('fits a 390 px wide screen', async () => {
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.route('**/*', (r) => r.abort());
      await page.setContent(html, { waitUntil: 'load' });
      const wide = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        // The element that overflows, named when the page is too wide (the hero's art is clipped by design).
        over: [...document.querySelectorAll('body *')]
          .filter((el) => !el.closest('svg') && el.getBoundingClientRect().right > 391)
          .slice(0, 5)
          .map((el) => `${el.tagName}.${el.className}: ${(el.textContent ?? '').slice(0, 60)}`),
      }));
      expect({ width: wide.scrollWidth, over: wide.scrollWidth > 390 ? wide.over : [] }).toEqual({
        width: expect.any(Number) as number,
        over: [],
      });
      expect(wide.scrollWidth).toBeLessThanOrEqual(390);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('a page about one of the documents of a LiveDoc', () => {
  // winston's README (MIT) beside pino's: both about loggers, and "logger" and "JSON" are all over
  // winston's; it never speaks of pino.
  const winston = readmePassages(path.resolve(import.meta.dirname, '../../../node_modules/winston/README.md'), {
    ref: 3,
    resourceId: 'res_winston',
    title: 'winston',
  });

  it('takes nothing from a document that never speaks of its subject; keeps one that does under another title', async () => {
    // Ranked as retrieval gave them for this request over such a LiveDoc: winston's first.
    const { html, plan } = await localLandingPage('Make a landing page about pino, the fast JSON logger', [
      ...winston.slice(0, 8),
      ...passages.slice(0, 6),
      AS_TEXT,
    ]);
    expect(plan.sources.map((s) => [s.ref, s.title])).toEqual([
      [1, 'pino'],
      [2, 'Web frameworks'],
    ]);
    expect(plan.sections.length).toBeGreaterThan(0);
    const text = html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ');
    expect(text).not.toMatch(/winston/i);
  }, 60_000);
});

describe('mindmap points are whole', () => {
  it('never a clause that leaves a bracket open (winston 3.19.0 README)', () => {
    const md = extractiveOutline({
      query: 'winston formats',
      passages: [
        {
          title: 'Motivation',
          content:
            'Attention is given to supporting flexibility in log formatting (see: Formats) & levels (see: Using custom logging levels), and ensuring those APIs decoupled from the implementation of transport logging.',
        },
      ],
    });
    for (const line of md.split('\n').filter((l) => /^\s*- /.test(l))) {
      expect((line.match(/\(/g) ?? []).length, line).toBe((line.match(/\)/g) ?? []).length);
      expect(line).not.toMatch(/…$/);
    }
  });
});
