import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const post = (path: string, body: unknown) =>
  p.fetch(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the beta SEO endpoints over HTTP', () => {
  it('answer the provider envelope; a rejected task is HTTP 200 with its status code', async () => {
    const res = await post('/v1/beta/seo/backlinks/backlinks/live', [
      { target: 'example.com', limit: 2 },
      { target: 'example.com', limit: 1001 },
    ]);
    expect(res.status).toBe(200);
    const env = await res.json();
    expect(env).toMatchObject({ version: 'v0.1.0-beta', status_code: 20000, tasks_count: 2, tasks_error: 1 });
    expect(env.tasks[0].result[0].items).toHaveLength(2);
    expect(env.tasks[1]).toMatchObject({ status_code: 40503, result: null });
  });

  it('a body that is not an array is refused in the envelope; no credentials is a 401', async () => {
    const env = await (await post('/v1/beta/seo/domain_analytics/whois/overview/live', { limit: 1 })).json();
    expect(env).toMatchObject({ status_code: 40500, tasks: [] });
    const anon = await p.fetch('/v1/beta/seo/domain_analytics/whois/overview/live', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    expect(anon.status).toBe(401);
  });
});

describe('facet beta backlinks', () => {
  it('compiles readable filters and orders, and the data honours them', async () => {
    const [result] = okJson(
      await p.cli([
        'beta',
        'backlinks',
        'example.com',
        '--filter',
        'rank > 300',
        '--filter',
        'dofollow = true',
        '--order',
        'rank,asc',
        '--limit',
        '50',
        '--json',
      ]),
    );
    expect(result.items.length).toBeGreaterThan(0);
    for (const i of result.items) expect(i.rank > 300 && i.dofollow).toBe(true);
    expect(result.items.map((i: any) => i.rank)).toEqual(
      [...result.items.map((i: any) => i.rank)].sort((a, b) => a - b),
    );
  });

  it('--all follows search_after_token and returns every item once', async () => {
    const [one] = okJson(await p.cli(['beta', 'backlinks', 'example.com', '--limit', '1000', '--json']));
    const [all] = okJson(await p.cli(['beta', 'backlinks', 'example.com', '--limit', '70', '--all', '--json']));
    expect(all.items_count).toBe(one.total_count);
    expect(all.items).toEqual(one.items);
  });

  it('--raw prints the envelope; a task error is a non-zero exit with its code and message', async () => {
    const env = okJson(await p.cli(['beta', 'backlinks', 'example.com', '--limit', '1', '--raw']));
    expect(env).toMatchObject({
      status_code: 20000,
      tasks: [{ status_code: 20000, data: { target: 'example.com', limit: 1 } }],
    });
    const bad = await p.cli(['beta', 'backlinks', 'example.com', '--filter', 'rank > high']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/task error 40504: Invalid Filter: filter on rank: value "high" is not a number/);
    const usage = await p.cli(['beta', 'backlinks', 'example.com', '--filter', 'rank']);
    expect(usage.exitCode).toBe(2);
  });

  it('prints a table when piped as tab-separated rows', async () => {
    const r = ok(await p.cli(['beta', 'backlinks', 'example.com', '--limit', '3']));
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toMatch(/3 of \d+ backlinks/);
  });
});

describe('facet beta whois and volume', () => {
  it("whois filters by dotted paths, and a domain's backlinks_info agrees with facet beta backlinks", async () => {
    const [w] = okJson(
      await p.cli([
        'beta',
        'whois',
        '--filter',
        'backlinks_info.backlinks < 600',
        '--order',
        'backlinks_info.backlinks,desc',
        '--limit',
        '2',
        '--json',
      ]),
    );
    expect(w.items).toHaveLength(2);
    for (const item of w.items) {
      expect(item.backlinks_info.backlinks).toBeLessThan(600);
      const [b] = okJson(await p.cli(['beta', 'backlinks', item.domain, '--all', '--json']));
      expect(b.total_count).toBe(item.backlinks_info.backlinks);
      expect(new Set(b.items.map((i: any) => i.domain_from)).size).toBe(item.backlinks_info.referring_domains);
    }
  });

  it('whois --all walks offset_token', async () => {
    const [all] = okJson(await p.cli(['beta', 'whois', '--limit', '100', '--all', '--json']));
    expect(all.items_count).toBe(all.total_count);
    expect(new Set(all.items.map((i: any) => i.domain)).size).toBe(all.total_count);
  });

  it('whois names the next page as --cursor, and --cursor continues where the first page stopped', async () => {
    const first = await p.cli(['beta', 'whois', '--limit', '2']);
    ok(first);
    const token = /more: --cursor (\S+), or --all/.exec(first.stderr)?.[1];
    expect(token).toBeDefined();
    const [page1] = okJson(await p.cli(['beta', 'whois', '--limit', '2', '--json']));
    const [page2] = okJson(await p.cli(['beta', 'whois', '--limit', '2', '--cursor', token!, '--json']));
    const [four] = okJson(await p.cli(['beta', 'whois', '--limit', '4', '--json']));
    expect([...page1.items, ...page2.items].map((i: any) => i.domain)).toEqual(four.items.map((i: any) => i.domain));
  });

  it('volume gives monthly searches for lowercased keywords', async () => {
    const [v] = okJson(
      await p.cli([
        'beta',
        'volume',
        'Running Shoes',
        'tea',
        '--location',
        'United States',
        '--language',
        'en',
        '--json',
      ]),
    );
    expect(v).toMatchObject({ location_code: 2840, language_code: 'en', items_count: 2 });
    expect(v.items[0].keyword).toBe('running shoes');
    expect(v.items[0].monthly_searches).toHaveLength(12);
    const bad = await p.cli(['beta', 'volume', 'tea', '--location', 'Atlantis']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/task error 40503: .*unknown location/);
  });
});
