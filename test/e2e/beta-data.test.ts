import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const get = (path: string) => p.fetch(path, { headers: { authorization: `Bearer ${p.boot.api_key}` } });

describe('financial endpoints', () => {
  it('facet beta income: quarterly statements add up to the annual one', async () => {
    const [year] = okJson(await p.cli(['beta', 'income', 'AAPL', '--period', 'annual', '--limit', '1', '--json']));
    const quarters = okJson(
      await p.cli([
        'beta',
        'income',
        'AAPL',
        '--period',
        'quarterly',
        '--from',
        `${year.report_period.slice(0, 4)}-01-01`,
        '--to',
        year.report_period,
        '--json',
      ]),
    );
    expect(quarters).toHaveLength(4);
    expect(year.revenue).toBe(quarters.reduce((s: number, q: any) => s + q.revenue, 0));
    expect(year.net_income).toBe(quarters.reduce((s: number, q: any) => s + q.net_income, 0));
  });

  it('an unknown ticker is a 404 in the financial shape and exit code 4', async () => {
    const res = await get('/v1/beta/financial/financials/income-statements?period=annual&ticker=NOPE');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'NOT_FOUND', message: 'no company with ticker NOPE' });
    const r = await p.cli(['beta', 'insiders', 'NOPE']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/no company with ticker NOPE/);
  });

  it('a bad query is a 400 in the financial shape', async () => {
    const res = await get('/v1/beta/financial/financials/income-statements?ticker=AAPL');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'MISSING_PARAMETER' });
    const bad = await get('/v1/beta/financial/insider-trades?ticker=AAPL&filing_date_gte=yesterday');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'INVALID_PARAMETER' });
  });

  it('facet beta insiders: default 10, newest filing first, filters apply', async () => {
    const trades = okJson(await p.cli(['beta', 'insiders', 'MSFT', '--json']));
    expect(trades).toHaveLength(10);
    expect(trades.map((t: any) => t.filing_date)).toEqual([...trades.map((t: any) => t.filing_date)].sort().reverse());
    const sells = okJson(await p.cli(['beta', 'insiders', 'MSFT', '--type', 'sell', '--limit', '50', '--json']));
    expect(sells.every((t: any) => t.transaction_shares < 0)).toBe(true);
  });
});

describe('landing-page traffic', () => {
  it('facet beta traffic: rows by clicks; a limit over 20 gives 20 and says so', async () => {
    const res = okJson(
      await p.cli([
        'beta',
        'traffic',
        'example.com',
        '--from',
        '2026-01',
        '--to',
        '2026-03',
        '--limit',
        '40',
        '--json',
      ]),
    );
    expect(res.meta.query.limit).toBe(20);
    expect(res.meta.request).toMatchObject({ domain: 'example.com', limit: 40 });
    expect(res.data.length).toBeLessThanOrEqual(20);
    const r = ok(
      await p.cli(['beta', 'traffic', 'example.com', '--from', '2026-01', '--to', '2026-03', '--limit', '40']),
    );
    expect(r.stderr).toMatch(/at most 20 rows per request \(billed as 20\)/);
  });

  it('facet beta traffic --all reads every landing page, a page a request, in click order', async () => {
    const args = ['beta', 'traffic', 'example.com', '--from', '2026-01', '--to', '2026-03', '--limit', '4', '--json'];
    const first = okJson(await p.cli(args));
    expect(first.meta.total_count).toBeGreaterThan(8);
    const all = okJson(await p.cli([...args, '--all']));
    expect(all.data).toHaveLength(first.meta.total_count);
    expect(new Set(all.data.map((r: any) => r.url)).size).toBe(first.meta.total_count);
    expect(all.data.slice(0, 4)).toEqual(first.data);
    const clicks = all.data.map((r: any) => r.clicks);
    expect(clicks).toEqual([...clicks].sort((a, b) => b - a));
  });

  it('a missing limit or reversed months is a 400 in the beta shape', async () => {
    const res = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=2026-01&end_date=2026-02',
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'MISSING_PARAMETER' } });
    const reversed = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=2026-05&end_date=2026-02&limit=5',
    );
    expect(reversed.status).toBe(400);
    expect((await reversed.json()).error.message).toMatch(/after end_date/);
    const country = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=2026-01&end_date=2026-02&limit=5&country=de',
    );
    expect(country.status).toBe(400);
    expect(await country.json()).toMatchObject({ error: { code: 'INVALID_PARAMETER' } });
    const us = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=2026-01&end_date=2026-02&limit=20&country=us',
    );
    expect(us.status).toBe(200);

    // The months are summed one by one: ten years is the most, and 6,700 years answer at once with a 400.
    const tenYears = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=2016-12&end_date=2026-11&limit=5',
    );
    expect(tenYears.status).toBe(200);
    const past = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=2016-11&end_date=2026-11&limit=5',
    );
    expect(past.status).toBe(400);
    expect((await past.json()).error.message).toMatch(/is 121 months; at most 120 in one request/);
    const ages = await get(
      '/v1/beta/webanalytics/search/landing-pages?domain=example.com&start_date=0236-09&end_date=6969-05&limit=5',
    );
    expect(ages.status).toBe(400);
  });
});

describe('app-store locations', () => {
  it('lists locations per store; an unknown store is task error 40401 with exit 4', async () => {
    const play = okJson(await p.cli(['beta', 'locations', 'google_play', '--json']));
    const apple = okJson(await p.cli(['beta', 'locations', 'apple', '--json']));
    expect(play.find((l: any) => l.location_code === 2840)).toEqual({
      location_code: 2840,
      location_name: 'United States',
      location_name_parent: null,
      country_iso_code: 'US',
      location_type: 'Country',
    });
    expect(apple.length).toBeGreaterThan(0);
    expect(apple.length).toBeLessThan(play.length);
    const bad = await p.cli(['beta', 'locations', 'windows_store']);
    expect(bad.exitCode).toBe(4);
    expect(bad.stderr).toMatch(/task error 40401: Invalid Path: unknown app store windows_store/);
  });
});

describe('facet serve data import', () => {
  it('imported backlinks replace the generated list of their target, on a running platform', async () => {
    const dir = tempDir('beta-import');
    const file = path.join(dir, 'links.csv');
    writeFileSync(
      file,
      'target,url_from,url_to,rank,dofollow\nmine.example,https://a.example/x,https://mine.example/,300,true\nmine.example,https://b.example/y,https://mine.example/p,700,false\n',
    );
    const imported = okJson(
      await p.cli(['serve', 'data', 'import', 'backlinks', file, '--data-dir', p.dataDir, '--json']),
    );
    expect(imported).toEqual({ family: 'backlinks', subjects: ['mine.example'], rows: 2 });
    const [r] = okJson(await p.cli(['beta', 'backlinks', 'mine.example', '--filter', 'rank > 400', '--json']));
    expect(r.total_count).toBe(1);
    expect(r.items[0]).toMatchObject({ url_from: 'https://b.example/y', rank: 700, dofollow: false });
    // The server's worker keeps an import's rows and index until the next import, made here by
    // another process: the next request sees the new rows.
    writeFileSync(
      file,
      'target,url_from,url_to,rank,dofollow\nmine.example,https://c.example/z,https://mine.example/,900,true\nmine.example,https://d.example/w,https://mine.example/,800,true\nmine.example,https://e.example/v,https://mine.example/,100,true\n',
    );
    okJson(await p.cli(['serve', 'data', 'import', 'backlinks', file, '--data-dir', p.dataDir, '--json']));
    const [again] = okJson(await p.cli(['beta', 'backlinks', 'mine.example', '--filter', 'rank > 400', '--json']));
    expect(again.total_count).toBe(2);
    expect(again.items.map((i: { url_from: string }) => i.url_from)).toEqual([
      'https://c.example/z',
      'https://d.example/w',
    ]);
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"target":"mine.example","url_from":"https://a/","url_to":"https://mine.example/","rank":"high"}\n',
    );
    const refused = await p.cli(['serve', 'data', 'import', 'backlinks', bad, '--data-dir', p.dataDir]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/record 1: rank must be a number/);
  });
});
