import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { measureFrames, slideXmls } from '../helpers/deck-check.js';
import { sofficePath } from '../../src/server/engines/slides/preview.js';
import { viewerOnceDrawn } from '../helpers/deck-previews.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';

let p: Platform;
let files: string;
let ld: string;
const docs: Record<string, string> = {};

const v2 = (key: string, pathname: string, init: { method?: string; body?: unknown } = {}) =>
  p.fetch(pathname, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: {
      Authorization: `Bearer ${key}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
const expectError = async (res: Response, status: number, code: string) => {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({ status: 'error', code });
  expect(body.message.length).toBeGreaterThan(10);
  return body;
};

const SOLAR = `# Solar power in Spain

Spain installed more solar capacity than any other European country in 2023. Cheap land and strong sunshine keep the cost of a new solar farm below that of a gas plant.

## Capacity by year

| Year | Capacity (GW) | Share of power (%) |
|---|---|---|
| 2019 | 9.2 | 3.5 |
| 2020 | 11.8 | 6.1 |
| 2021 | 15.1 | 8.1 |
| 2022 | 19.8 | 10.1 |
| 2023 | 25.5 | 14.0 |

Grid operators now curtail solar output on sunny spring afternoons because demand is too low to absorb it.`;

const STORAGE = `# Battery storage

Batteries move solar energy from the afternoon into the evening peak. Spain approved its first large battery auctions in 2024 to reduce curtailment of solar farms.

Pumped hydro storage still holds most of the stored energy in the Spanish grid, but new lithium batteries are faster to build and can respond within milliseconds.`;

const JOBS = `# Jobs and regions

Solar construction created about forty thousand jobs in rural Spain between 2019 and 2023. Regions such as Extremadura and Castilla-La Mancha host the largest solar farms.

Local councils receive land rents and taxes from solar projects, which pay for roads and schools in villages that were losing people.`;

/** An API key of a second user, made by the admin. */
async function otherUserKey(name: string): Promise<string> {
  const user = okJson(await p.cli(['serve', 'users', 'create', name, '--data-dir', p.dataDir, '--json']));
  const res = await p.fetch('/admin/api-keys', {
    method: 'POST',
    headers: { 'X-API-Key': p.boot.api_key, 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: user.id }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

beforeAll(async () => {
  p = await startPlatform();
  files = tempDir('slides');
  ld = okJson(await p.cli(['livedocs', 'create', 'Energy notes', '--json'])).short_id;
  for (const [title, content] of [
    ['Solar power in Spain', SOLAR],
    ['Battery storage', STORAGE],
    ['Jobs and regions', JOBS],
  ]) {
    docs[title] = okJson(
      await p.cli(['livedocs', 'resources', 'add-doc', ld, '--title', title, '--content', content, '--json']),
    ).id;
  }
}, 120_000);
afterAll(() => p?.cleanup());

describe('slide decks end to end', () => {
  let deckFile: string;
  let record: any;

  it('facet slides create --wait --out writes a deck built from the LiveDoc', async () => {
    deckFile = path.join(files, 'deck.pptx');
    record = okJson(
      await p.cli(
        [
          'slides',
          'create',
          'How is solar power changing Spain?',
          '--livedoc',
          ld,
          '--theme',
          'forest',
          '--wait',
          '--interval',
          '2',
          '--out',
          deckFile,
          '--json',
        ],
        { timeout: 240_000 },
      ),
    );
    expect(record).toMatchObject({ task_status: 'COMPLETED', live_doc_short_id: ld });
    expect(existsSync(deckFile)).toBe(true);
    if (process.env.FACET_KEEP_DECK) writeFileSync(process.env.FACET_KEEP_DECK, readFileSync(deckFile));
    // Metered through the gateway under the task.
    const usage = await (await v2(p.boot.api_key, '/v2/tasks/' + record.task_id + '/historical')).json();
    expect(usage.data.task_status).toBe('COMPLETED');
  }, 300_000);

  it('has a native chart of the table of numbers, notes with citations, and no overflowing text frame', async () => {
    const pptx = readFileSync(deckFile);
    const { zip, slides } = await slideXmls(pptx);
    const charts = Object.keys(zip.files).filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n));
    expect(charts.length).toBeGreaterThanOrEqual(1);
    const chartXml = await zip.file(charts[0])!.async('string');
    expect(chartXml).toMatch(/<c:(lineChart|barChart)>/);
    expect(chartXml).toContain('25.5');
    expect(chartXml).toContain('2023');
    const notes = await Promise.all(
      Object.keys(zip.files)
        .filter((n) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(n))
        .map((n) => zip.file(n)!.async('string')),
    );
    const cited = notes.filter((n) => Object.values(docs).some((id) => n.includes(`(${id})`)));
    expect(cited.length).toBeGreaterThanOrEqual(slides.length - 1);
    expect(notes.join('\n')).toContain('Solar power in Spain (');
    const frames = await measureFrames(pptx);
    expect(frames.length).toBeGreaterThan(slides.length);
    for (const f of frames) {
      expect(f.widestLine, `slide ${f.slide}: "${f.text}" is wider than its frame`).toBeLessThanOrEqual(f.available);
      expect(f.height, `slide ${f.slide}: "${f.text}" is taller than its frame`).toBeLessThanOrEqual(
        f.frameHeight + 0.01,
      );
    }
  });

  it('opens in LibreOffice: the PDF has as many pages as the deck has slides', async (ctx) => {
    const soffice = sofficePath();
    if (!soffice) return ctx.skip('LibreOffice (soffice) is not installed: cannot convert the deck to PDF here');
    const { slides } = await slideXmls(readFileSync(deckFile));
    const out = tempDir('pdf');
    execFileSync(
      soffice,
      [`-env:UserInstallation=file://${out}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', out, deckFile],
      { timeout: 120_000, stdio: 'ignore' },
    );
    const pdf = readFileSync(path.join(out, 'deck.pdf')).toString('latin1');
    const pages = pdf.match(/\/Type\s*\/Page[^s]/g)?.length;
    expect(pages).toBe(slides.length);
  }, 150_000);

  it("ppt-retrieve on page 2 returns that slide's text first, then the passages it rests on", async () => {
    const resources = okJson(await p.cli(['livedocs', 'resources', 'list', ld, '--json']));
    const deck = resources.items.find((r: { resource_type: string }) => r.resource_type === 'ai_ppt');
    expect(deck).toBeTruthy();
    const content = okJson(await p.cli(['livedocs', 'resources', 'content', ld, deck.id, '--json']));
    const slide2 = content.content.split(/\n\n(?=Slide \d+\n)/)[1].replace(/^Slide 2\n/, '');
    const res = await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/ppt-retrieve`, {
      body: { resource_id: deck.id, page_number: 2 },
    });
    const ranked = (await res.json()).data;
    expect(res.status).toBe(200);
    expect(ranked[0]).toMatchObject({ id: deck.id, content: slide2 });
    expect(ranked[0].metadata.page_number).toBe(2);
    expect(ranked.slice(1).some((r: { id: string }) => Object.values(docs).includes(r.id))).toBe(true);
    expect(ranked[0].score).toBeGreaterThan(ranked[ranked.length - 1].score);

    await expectError(
      await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/ppt-retrieve`, {
        body: { resource_id: deck.id, page_number: 99 },
      }),
      400,
      'INVALID_PARAMETER',
    );
    const notDeck = await expectError(
      await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/ppt-retrieve`, {
        body: { resource_id: docs['Battery storage'], page_number: 1 },
      }),
      400,
      'UNSUPPORTED_RESOURCE_TYPE',
    );
    expect(notDeck.message).toMatch(/not a slide deck/);
    await expectError(
      await v2(p.boot.api_key, `/v2/livedocs/${ld}/resources/ppt-retrieve`, { body: { resource_id: deck.id } }),
      400,
      'MISSING_PARAMETER',
    );
  });

  it('the viewer page shows every slide preview in order with the .pptx download; its assets carry the signature', async () => {
    const url = new URL(record.ppt_url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    // Right after the task, the text is shown while the previews are drawn; then the pictures.
    const first = await page.text();
    if (sofficePath() && !first.includes('<img')) expect(first).toContain('previews are being drawn');
    const html = await viewerOnceDrawn(record.ppt_url);
    const { slides } = await slideXmls(readFileSync(deckFile));
    const imgs = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    if (sofficePath()) {
      expect(imgs).toHaveLength(slides.length);
      expect(imgs.map((s) => /previews\/(\d+)/.exec(s)![1])).toEqual(slides.map((_, i) => String(i + 1)));
      const png = await fetch(new URL(imgs[1], url));
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await png.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
    const download = /href="([^"]+deck\.pptx[^"]*)"/.exec(html)![1].replace(/&amp;/g, '&');
    const file = await fetch(new URL(download, url));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(deckFile))).toBe(true);
    // Without the signature: 403, for the page and its assets alike.
    expect((await fetch(`${url.origin}${url.pathname}`)).status).toBe(403);
    expect((await fetch(new URL(download.replace(/sig=[^&]+/, 'sig=x'), url))).status).toBe(403);
  }, 240_000);

  it('facet slides download saves the same deck; status and get read the task', async () => {
    const again = path.join(files, 'again.pptx');
    okJson(await p.cli(['slides', 'download', record.task_id, '--out', again, '--json']));
    expect(readFileSync(again).equals(readFileSync(deckFile))).toBe(true);
    expect(okJson(await p.cli(['slides', 'status', record.task_id, '--json']))).toEqual({ status: 'COMPLETED' });
    expect(okJson(await p.cli(['slides', 'get', record.task_id, '--json']))).toMatchObject({
      task_id: record.task_id,
      ppt_biz_id: record.ppt_biz_id,
    });
  });
});

describe('POST /v2/ppts errors', () => {
  it("LIVEDOC_NOT_FOUND for an absent or another user's LiveDoc, 400 for an unknown theme, RESOURCE_NOT_FOUND for a resource elsewhere", async () => {
    const key = p.boot.api_key;
    await expectError(
      await v2(key, '/v2/ppts', { body: { query: 'x', livedoc_short_id: 'ld_missing' } }),
      404,
      'LIVEDOC_NOT_FOUND',
    );
    const other = await otherUserKey('slides-other');
    await expectError(
      await v2(other, '/v2/ppts', { body: { query: 'x', livedoc_short_id: ld } }),
      404,
      'LIVEDOC_NOT_FOUND',
    );
    const theme = await expectError(
      await v2(key, '/v2/ppts', {
        body: { query: 'x', livedoc_short_id: ld, ppt_config: { ai_theme_id: 'no-such-theme' } },
      }),
      400,
      'INVALID_PARAMETER',
    );
    expect(theme.message).toMatch(/ai_theme_id/);
    await expectError(
      await v2(key, '/v2/ppts', { body: { query: 'x', livedoc_short_id: ld, resource_ids: ['res_elsewhere'] } }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(await v2(key, '/v2/ppts', { body: { livedoc_short_id: ld } }), 400, 'MISSING_PARAMETER');
    await expectError(await v2(key, '/v2/ppts', { body: { query: 'x'.repeat(2001) } }), 400, 'INVALID_PARAMETER');
  });

  it('without livedoc_short_id: a bare request is refused with 400 and nothing is made; a prompt with content becomes the deck', async () => {
    const key = p.boot.api_key;
    const before = (await (await v2(key, '/v2/livedocs?page_size=100')).json()).data;
    const refused = await expectError(
      await v2(key, '/v2/ppts', { body: { query: 'Make a deck about an empty subject' } }),
      400,
      'INVALID_PARAMETER',
    );
    expect(refused.message).toMatch(/livedoc_short_id/);
    const cli = await p.cli(['slides', 'create', 'An empty subject', '--json']);
    expect(cli.exitCode, cli.stderr).toBe(1);
    expect(cli.stderr).toMatch(/livedoc_short_id/);
    // No LiveDoc was made for either.
    const after = (await (await v2(key, '/v2/livedocs?page_size=100')).json()).data;
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));

    const prompt = [
      'Quarterly review of the support team.',
      '- Response times fell from nine hours to four hours after the new rota started.',
      '- Customer satisfaction rose to 92 percent in the third quarter.',
      '- Two new agents joined the weekend shift in August.',
      'The team plans to add live chat before the end of the year.',
    ].join('\n');
    const r = await p.cli(
      ['slides', 'create', prompt, '--wait', '--interval', '2', '--out', path.join(files, 'prompt.pptx')],
      {
        timeout: 120_000,
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const { slides } = await slideXmls(readFileSync(path.join(files, 'prompt.pptx')));
    expect(slides.join('')).toContain('Customer satisfaction rose to 92 percent');
  }, 150_000);
});

describe('themes', () => {
  it('lists at least 12 default themes, pages them, localizes them, and filters by keyword', async () => {
    const all = okJson(await p.cli(['slides', 'themes', '--size', '100', '--json']));
    expect(all.total).toBeGreaterThanOrEqual(12);
    expect(all.items.every((t: { type: string }) => t.type === 'default')).toBe(true);
    const first = okJson(await p.cli(['slides', 'themes', '--size', '5', '--json']));
    const second = okJson(await p.cli(['slides', 'themes', '--size', '5', '--page', '2', '--json']));
    expect(first.items).toHaveLength(5);
    expect(second.items.map((t: { id: string }) => t.id)).toEqual(
      all.items.slice(5, 10).map((t: { id: string }) => t.id),
    );
    const past = okJson(await p.cli(['slides', 'themes', '--page', '99', '--json']));
    expect(past).toMatchObject({ total: all.total, page: 99, items: [] });
    const zh = okJson(await p.cli(['slides', 'themes', '--lang', 'zh-Hans', '--keyword', '午夜', '--json']));
    expect(zh.items.map((t: { id: string }) => t.id)).toEqual(['midnight']);
    expect(zh.items[0].title).toBe('午夜');
    const en = okJson(await p.cli(['slides', 'themes', '--keyword', 'BLUE', '--json']));
    expect(en.items.map((t: { id: string }) => t.id)).toEqual(['classic-blue']);
    const table = await p.cli(['slides', 'themes', '--size', '3']);
    expect(table.stdout.split('\n')[0]).toBe('classic-blue\tdefault\tClassic Blue\tCalm and corporate\tLato');
  });

  it('size and page limits hold at and past their bounds', async () => {
    const key = p.boot.api_key;
    expect((await (await v2(key, '/v2/ppt-themes?size=100')).json()).data.size).toBe(100);
    expect((await (await v2(key, '/v2/ppt-themes')).json()).data).toMatchObject({ page: 1, size: 20 });
    await expectError(await v2(key, '/v2/ppt-themes?size=101'), 400, 'INVALID_PARAMETER');
    await expectError(await v2(key, '/v2/ppt-themes?size=0'), 400, 'INVALID_PARAMETER');
    await expectError(await v2(key, '/v2/ppt-themes?page=0'), 400, 'INVALID_PARAMETER');
    await expectError(await v2(key, '/v2/ppt-themes?lang=fr'), 400, 'INVALID_PARAMETER');
    await expectError(await v2(key, '/v2/ppt-themes?type=other'), 400, 'INVALID_PARAMETER');
    expect((await p.cli(['slides', 'themes', '--size', '101'])).exitCode).toBe(2);
  });

  it('a custom theme is listed for its owner only and can be used; unreadable colours are refused', async () => {
    const key = p.boot.api_key;
    const body = {
      title: 'Brand',
      colors: { background: '#FFFFFF', text: '#202020', accent: '#7A1FA2' },
      fonts: { heading: 'Caladea', body: 'Carlito' },
      background: 'band-left',
      bullet_style: 'card',
    };
    const made = await (await v2(key, '/v2/ppt-themes', { body })).json();
    expect(made.data).toMatchObject({ type: 'custom', title: 'Brand', fonts: { heading: 'Caladea', body: 'Carlito' } });
    const mine = okJson(await p.cli(['slides', 'themes', '--type', 'custom', '--json']));
    expect(mine.items.map((t: { id: string }) => t.id)).toEqual([made.data.id]);
    const other = await otherUserKey('theme-other');
    const theirs = await (await v2(other, '/v2/ppt-themes?type=custom')).json();
    expect(theirs.data).toMatchObject({ total: 0, items: [] });
    await expectError(
      await v2(other, '/v2/ppts', { body: { query: 'x', ppt_config: { ai_theme_id: made.data.id } } }),
      400,
      'INVALID_PARAMETER',
    );
    const used = await (
      await v2(key, '/v2/ppts', {
        body: { query: 'solar', livedoc_short_id: ld, ppt_config: { ai_theme_id: made.data.id } },
      })
    ).json();
    expect(used.data.task_id).toMatch(/^task_/);
    const low = await expectError(
      await v2(key, '/v2/ppt-themes', {
        body: { ...body, colors: { background: '#FFFFFF', text: '#DDDDDD', accent: '#7A1FA2' } },
      }),
      400,
      'INVALID_PARAMETER',
    );
    expect(low.message).toMatch(/contrast/);
    await expectError(
      await v2(key, '/v2/ppt-themes', { body: { ...body, fonts: { heading: 'Comic Sans', body: 'Carlito' } } }),
      400,
      'INVALID_PARAMETER',
    );
    await expectError(
      await v2(key, '/v2/ppt-themes', { body: { ...body, colors: { ...body.colors, accent: 'purple' } } }),
      400,
      'INVALID_PARAMETER',
    );
  });

  it('each theme has a preview picture', async (ctx) => {
    if (!sofficePath()) return ctx.skip('LibreOffice (soffice) is not installed: theme previews cannot be drawn here');
    const t = okJson(await p.cli(['slides', 'themes', '--size', '1', '--json'])).items[0];
    const res = await fetch(t.preview_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    writeFileSync(path.join(files, 'preview.png'), Buffer.from(await res.arrayBuffer()));
  }, 60_000);
});

describe('an upstream outline model, its outage, and no LibreOffice', () => {
  let q: Platform;
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream();
    q = await startPlatform({
      args: ['--upstream-openai-base-url', up.openaiBase, '--default-model', 'aster-mini'],
      env: { FACET_SOFFICE: '' },
    });
  }, 60_000);
  afterAll(async () => {
    q?.cleanup();
    await up?.close();
  });

  it('upstream down: the task is PENDING with the reason (exit 6); retried once it is back, the upstream writes the outline; without LibreOffice the deck has no previews and the viewer shows the text', async () => {
    const qld = okJson(await q.cli(['livedocs', 'create', 'Energy', '--json'])).short_id;
    okJson(
      await q.cli([
        'livedocs',
        'resources',
        'add-doc',
        qld,
        '--title',
        'Solar power in Spain',
        '--content',
        SOLAR,
        '--json',
      ]),
    );
    up.script({ status: 503, error: 'overloaded, try later' });
    const task = okJson(await q.cli(['slides', 'create', 'Solar in Spain', '--livedoc', qld, '--json'])).task_id;
    const parked = await q.cli(['slides', 'wait', task, '--interval', '2', '--json'], { timeout: 120_000 });
    expect(parked.exitCode, parked.stderr).toBe(6);
    expect(parked.stderr).toMatch(/PENDING/);
    expect(parked.stderr).toMatch(/model service is unavailable/);

    const outline = {
      title: 'Solar in Spain',
      subtitle: 'From the upstream',
      slides: [{ title: 'Record growth', points: ['Spain led Europe in new solar capacity in 2023.'], sources: [1] }],
      takeaways: ['Solar keeps growing.'],
    };
    up.script({ text: 'Here is the outline:\n' + JSON.stringify(outline) });
    okJson(await q.cli(['slides', 'retry', task, '--json']));
    const done = okJson(await q.cli(['slides', 'wait', task, '--interval', '2', '--json'], { timeout: 120_000 }));
    expect(done.task_status).toBe('COMPLETED');
    const prompt = JSON.stringify(up.received.at(-1)!.body);
    expect(prompt).toContain('Spain installed more solar capacity');

    const html = await viewerOnceDrawn(done.ppt_url);
    expect(html).not.toContain('<img');
    expect(html).toContain('No previews were drawn');
    expect(html).toContain('Record growth');
    expect(html).toContain('Spain led Europe in new solar capacity in 2023.');
    const logs = await q.fetch(`/v2/tasks/${task}/historical`, {
      headers: { Authorization: `Bearer ${q.boot.api_key}` },
    });
    expect(logs.status).toBe(200);
  }, 300_000);
});
