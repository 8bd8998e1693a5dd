import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * Landing pages and mindmaps from realistic sources (issue 28): a product article with navigation,
 * a cookie banner, a two-unit price table and a footer; a refund policy; a Chinese guide. Key
 * figures are the sentences that state them, the overview is the article's own opening, no
 * furniture reaches the page; the map branches on the query's topics and has no label twice.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/documents');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const ALL = ['kettle-article.md', 'refund-policy.md', 'kettle-zh.md'].map(fixture).join('\n');

let p: Platform;
let out: string;
let ld: string;

beforeAll(async () => {
  p = await startPlatform();
  out = process.env.FACET_KEEP_PAGES ?? tempDir('pages');
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

const text = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describe('a landing page states whole facts from its sources', () => {
  it('key figures are sentences containing them, the overview is the article opening, no furniture', async () => {
    const file = path.join(out, 'kettles.html');
    ok(
      await p.cli(
        [
          'pages',
          'create',
          'Make a landing page about the Alder kettle range and its returns',
          '--livedoc',
          ld,
          '--wait',
          '--out',
          file,
          '--interval',
          '2',
        ],
        { timeout: 120_000 },
      ),
    );
    const html = readFileSync(file, 'utf8');
    const figures = [...html.matchAll(/<li><span class="value">([^<]+)<\/span><span class="label">([^<]+)/g)].map(
      (m) => ({ value: m[1], label: m[2].trim() }),
    );
    expect(figures.length).toBeGreaterThanOrEqual(2);
    for (const f of figures) {
      expect(f.label, f.value).toContain(f.value);
      // The label is a sentence (or clause) of a source, word for word.
      expect(ALL.replace(/\s+/g, ' '), f.label).toContain(f.label.replace(/[.…]$/, ''));
    }
    expect(figures.map((f) => f.label)).toContain(
      'Every batch is 12 kg of recycled iron, poured into sand moulds and finished with a flaxseed-oil seasoning.',
    );
    const overview = /<h2 id="overview-title">[^<]*<\/h2><p class="lead">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    expect(text(overview)).toContain('Alder makes its kettles by hand in a small foundry in Sheffield.');
    // ("Skip to content" is the page's own link for keyboard users, not a source's.)
    expect(text(html).replace('Skip to content', '')).not.toMatch(
      /cookie|All rights reserved|Page \d of \d|Skip to content|Click here|Home · Shop/i,
    );
    expect(figures.map((f) => f.value)).toContain('25-year');
  }, 180_000);
});

describe('a mindmap branches on the query and the sources\u2019 sections', () => {
  it('branches in the order of the query topics, no node label twice', async () => {
    const res = await p.fetch('/v2/mindmap', {
      method: 'POST',
      headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'Make a mind map of kettle care, refunds and the warranty',
        livedoc_short_id: ld,
        layout: 'MIND_MAP',
      }),
    });
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { data: { resource_id: string; svg: string } }).data;
    if (process.env.FACET_KEEP_PAGES) (await import('node:fs')).writeFileSync(path.join(out, 'map.svg'), data.svg);
    const md: string = okJson(
      await p.cli(['livedocs', 'resources', 'content', ld, data.resource_id, '--json']),
    ).content;
    const labels = md
      .split('\n')
      .map((l) =>
        l
          .replace(/^#+\s+|^\s*-\s+/, '')
          .trim()
          .toLowerCase(),
      )
      .filter(Boolean);
    expect(new Set(labels).size, md).toBe(labels.length);
    const branches = md
      .split('\n')
      .filter((l) => /^- /.test(l))
      .map((l) => l.slice(2));
    const at = (re: RegExp) => branches.findIndex((b) => re.test(b));
    expect(at(/care/i), md).toBe(0);
    expect(at(/refund/i), md).toBe(1);
    expect(at(/warranty/i), md).toBe(2);
    expect(md).not.toMatch(/cookie|All rights reserved|Page \d of \d|\| Model/i);
  }, 120_000);
});
