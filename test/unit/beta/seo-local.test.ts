import { afterAll, describe, expect, it } from 'vitest';
import { localSeoProvider } from '../../../src/server/providers/beta/local/seo-local.js';
import { openStore } from '../../../src/server/store/store.js';

const store = await openStore({ dataDir: null });
afterAll(() => store.close());
import { BACKLINKS_PATH, WHOIS_PATH, VOLUME_PATH } from '../../../src/contract/beta-seo.js';
import { ProviderEnvelope } from '../../../src/contract/envelopes.js';

const seo = localSeoProvider(new Uint8Array(32).fill(7), store.db);
const backlinks = (task: Record<string, unknown>) => seo.post('backlinks', BACKLINKS_PATH, [task]);
const whois = (task: Record<string, unknown>) => seo.post('whois', WHOIS_PATH, [task]);
const volume = (task: Record<string, unknown>) => seo.post('volume', VOLUME_PATH, [task]);
const result = (env: { tasks: Array<{ status_code: number; status_message: string; result: unknown[] | null }> }) => {
  expect(env.tasks[0].status_message).toBe('Ok.');
  return env.tasks[0].result![0] as any;
};
const taskError = (env: { tasks: Array<{ status_code: number; status_message: string }> }) => env.tasks[0];

describe('the provider envelope', () => {
  it('wraps each task, echoes its data, counts errors, and keeps HTTP-level success', async () => {
    const env = await seo.post('backlinks', BACKLINKS_PATH, [
      { target: 'example.com', limit: 1 },
      { target: 'example.com', limit: 5000 },
    ]);
    expect(ProviderEnvelope.parse(env)).toBeTruthy();
    expect(env).toMatchObject({ version: 'v0.1.0-beta', status_code: 20000, tasks_count: 2, tasks_error: 1 });
    expect(env.tasks[0]).toMatchObject({
      status_code: 20000,
      result_count: 1,
      data: { target: 'example.com', limit: 1 },
      path: ['v1', 'beta', 'seo', 'backlinks', 'backlinks', 'live'],
    });
    expect(env.tasks[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(env.tasks[1]).toMatchObject({ status_code: 40503, result: null, cost: 0 });
    expect(env.tasks[1].status_message).toMatch(/limit must be between 1 and 1000; got 5000/);
    expect(env.time).toMatch(/^\d+\.\d{4} sec\.$/);
  });

  it('refuses a body that is not an array of tasks, and more than 100 tasks', async () => {
    expect(await seo.post('backlinks', BACKLINKS_PATH, { target: 'x.com' })).toMatchObject({
      status_code: 40500,
      tasks_count: 0,
      tasks: [],
    });
    expect(await seo.post('backlinks', BACKLINKS_PATH, [])).toMatchObject({ status_code: 40500 });
    const many = Array.from({ length: 101 }, () => ({ target: 'x.com' }));
    expect(await seo.post('backlinks', BACKLINKS_PATH, many)).toMatchObject({ status_code: 40000, tasks: [] });
    const env = await seo.post('backlinks', BACKLINKS_PATH, ['x.com']);
    expect(env.tasks[0]).toMatchObject({ status_code: 40500, data: 'x.com' });
  });
});

describe('backlinks', () => {
  it('is deterministic: the same target has the same backlinks', async () => {
    const a = result(await backlinks({ target: 'example.com', limit: 50 }));
    const b = result(await backlinks({ target: 'example.com', limit: 50 }));
    expect(a.items).toEqual(b.items);
    expect(result(await backlinks({ target: 'other-site.org', limit: 50 })).items).not.toEqual(a.items);
  });

  it('an offset walk returns every item once, in order', async () => {
    const all = result(await backlinks({ target: 'example.com', limit: 1000 }));
    expect(all.total_count).toBeGreaterThan(100);
    const seen: string[] = [];
    for (let offset = 0; offset < all.total_count; offset += 37) {
      seen.push(
        ...result(await backlinks({ target: 'example.com', limit: 37, offset })).items.map((i: any) =>
          JSON.stringify(i),
        ),
      );
    }
    expect(seen).toEqual(all.items.map((i: any) => JSON.stringify(i)));
  });

  it('a search_after_token walk returns every item once, and a token with changed parameters is a task error', async () => {
    const base = {
      target: 'example.com',
      limit: 60,
      filters: ['dofollow', '=', true],
      order_by: ['domain_from_rank,desc'],
    };
    const all = result(await backlinks({ ...base, limit: 1000 }));
    const seen: unknown[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const page = result(await backlinks(token ? { ...base, search_after_token: token } : base));
      seen.push(...page.items);
      token = page.search_after_token;
      pages += 1;
    } while (token);
    expect(pages).toBe(Math.ceil(all.total_count / 60));
    expect(seen).toEqual(all.items);

    const first = result(await backlinks(base));
    const changed = taskError(await backlinks({ ...base, limit: 61, search_after_token: first.search_after_token }));
    expect(changed.status_code).toBe(40505);
    expect(changed.status_message).toMatch(/must stay identical/);
    const forged = taskError(
      await backlinks({ ...base, search_after_token: first.search_after_token.replace(/.$/, 'x') }),
    );
    expect(forged.status_code).toBe(40505);
  });

  it('applies filters and order_by to the data', async () => {
    const r = result(
      await backlinks({
        target: 'example.com',
        limit: 1000,
        filters: [['rank', '>', 200], 'and', ['dofollow', '=', true]],
        order_by: ['rank,asc'],
      }),
    );
    expect(r.items.length).toBeGreaterThan(0);
    for (const i of r.items) expect(i.rank > 200 && i.dofollow).toBe(true);
    expect(r.items.map((i: any) => i.rank)).toEqual([...r.items.map((i: any) => i.rank)].sort((a, b) => a - b));
  });

  it('modes: one_per_domain keeps one link per domain with its group_count; custom_mode keeps N', async () => {
    const asIs = result(await backlinks({ target: 'example.com', limit: 1000 }));
    const perDomain = result(await backlinks({ target: 'example.com', limit: 1000, mode: 'one_per_domain' }));
    const domains = new Set(asIs.items.map((i: any) => i.domain_from));
    expect(perDomain.total_count).toBe(domains.size);
    expect(new Set(perDomain.items.map((i: any) => i.domain_from)).size).toBe(perDomain.items.length);
    expect(perDomain.items.reduce((s: number, i: any) => s + i.group_count, 0)).toBe(asIs.total_count);
    const custom = result(
      await backlinks({
        target: 'example.com',
        limit: 1000,
        mode: 'one_per_domain',
        custom_mode: { field: 'domain_from', value: 2 },
      }),
    );
    expect(custom.mode).toBe('custom');
    const counts = new Map<string, number>();
    for (const i of custom.items) counts.set(i.domain_from, (counts.get(i.domain_from) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBe(2);
  });

  it('status type, internal links, subdomains and rank scale change the list', async () => {
    const live = result(await backlinks({ target: 'example.com', limit: 1 })).total_count;
    const lost = result(
      await backlinks({ target: 'example.com', limit: 1, backlinks_status_type: 'lost' }),
    ).total_count;
    const all = result(await backlinks({ target: 'example.com', limit: 1, backlinks_status_type: 'all' })).total_count;
    expect(live + lost).toBe(all);
    expect(lost).toBeGreaterThan(0);
    const withInternal = result(
      await backlinks({ target: 'example.com', limit: 1000, exclude_internal_backlinks: false }),
    );
    expect(withInternal.items.some((i: any) => i.domain_from === 'example.com')).toBe(true);
    const noSubs = result(await backlinks({ target: 'example.com', limit: 1000, include_subdomains: false }));
    expect(noSubs.items.every((i: any) => i.domain_to === 'example.com')).toBe(true);
    expect(noSubs.total_count).toBeLessThan(live);
    const hundred = result(await backlinks({ target: 'example.com', limit: 1000, rank_scale: 'one_hundred' }));
    expect(Math.max(...hundred.items.map((i: any) => i.rank))).toBeLessThanOrEqual(100);
  });

  it('a page target has its own backlinks pointing at that page', async () => {
    const r = result(await backlinks({ target: 'https://example.com/pricing', limit: 1000 }));
    expect(r.items.every((i: any) => i.url_to === 'https://example.com/pricing')).toBe(true);
  });

  it.each([
    [{ target: 'example.com', limit: 1000 }, 20000],
    [{ target: 'example.com', limit: 1001 }, 40503],
    [{ target: 'example.com', offset: 20000 }, 20000],
    [{ target: 'example.com', offset: 20001 }, 40503],
    [{ target: 'example.com', limit: 0 }, 40503],
    [{ target: 'example.com', tag: 'x'.repeat(255) }, 20000],
    [{ target: 'example.com', tag: 'x'.repeat(256) }, 40503],
    [{ target: 'example.com', order_by: ['rank,asc', 'rank,desc', 'first_seen,asc'] }, 20000],
    [{ target: 'example.com', order_by: ['rank,asc', 'rank,desc', 'first_seen,asc', 'anchor,asc'] }, 40504],
    [{ target: 'example.com', filters: ['rank', '>', 'x'] }, 40504],
    [{ target: 'www.example.com' }, 40503],
    [{ target: 'example.com', mode: 'sideways' }, 40503],
    [{ target: 'example.com', colour: 'red' }, 40501],
    [{}, 40501],
    [{ target: 'example.com', limit: '5' }, 40501],
  ])('limits and checks: %j -> %i', async (task, code) => {
    expect(taskError(await backlinks(task)).status_code).toBe(code);
  });
});

describe('whois overview', () => {
  it('orders by metrics.organic.count desc by default and walks with offset_token', async () => {
    const all = result(await whois({ limit: 1000 }));
    const counts = all.items.map((i: any) => i.metrics.organic.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const seen: unknown[] = [];
    let token: string | null = null;
    do {
      const page = result(await whois(token ? { limit: 50, offset_token: token } : { limit: 50 }));
      seen.push(...page.items);
      token = page.offset_token;
    } while (token);
    expect(seen).toEqual(all.items);
    const first = result(await whois({ limit: 50 }));
    expect(
      taskError(await whois({ limit: 50, order_by: ['domain,asc'], offset_token: first.offset_token })).status_code,
    ).toBe(40505);
  });

  it("a domain's backlinks_info agrees with its backlink list", async () => {
    const items = result(await whois({ limit: 5, filters: ['backlinks_info.backlinks', '<', 900] })).items;
    expect(items.length).toBe(5);
    for (const item of items) {
      const list = result(await backlinks({ target: item.domain, limit: 1000 }));
      expect(list.total_count).toBe(item.backlinks_info.backlinks);
      expect(list.items.filter((i: any) => i.dofollow).length).toBe(item.backlinks_info.dofollow);
      expect(new Set(list.items.map((i: any) => i.domain_from)).size).toBe(item.backlinks_info.referring_domains);
      expect(new Set(list.items.map((i: any) => i.url_from)).size).toBe(item.backlinks_info.referring_pages);
      const perDomain = result(await backlinks({ target: item.domain, limit: 1, mode: 'one_per_domain' }));
      expect(perDomain.total_count).toBe(item.backlinks_info.referring_domains);
    }
  });

  it('rank buckets add up to the count', async () => {
    for (const item of result(await whois({ limit: 20 })).items) {
      for (const m of [item.metrics.organic, item.metrics.paid]) {
        const sum = Object.entries(m)
          .filter(([k]) => k.startsWith('pos_'))
          .reduce((s, [, v]) => s + (v as number), 0);
        expect(sum).toBe(m.count);
      }
    }
  });

  it.each([
    [{ limit: 1000 }, 20000],
    [{ limit: 1001 }, 40503],
    [{ offset: 100000 }, 20000],
    [{ offset: 100001 }, 40503],
    [{ tag: 't'.repeat(255) }, 20000],
    [{ tag: 't'.repeat(256) }, 40503],
    [{ order_by: ['domain,asc', 'tld,asc', 'registered,desc', 'registrar,asc'] }, 40504],
    [{ filters: Array.from({ length: 9 }, () => ['tld', '=', 'com']).flatMap((c, i) => (i ? ['or', c] : [c])) }, 40504],
    [{ filters: ['metrics.organic.count', '>', 'many'] }, 40504],
    [{ filters: ['metrics.organic.nope', '>', 1] }, 40504],
  ])('limits: %j -> %i', async (task, code) => {
    expect(taskError(await whois(task)).status_code).toBe(code);
  });
});

describe('search volume', () => {
  it('lowercases keywords, is deterministic, and search_volume is the mean of the months', async () => {
    const a = result(
      await volume({ keywords: ['Running Shoes', 'running shoes', 'tea'], location_code: 2840, language_code: 'en' }),
    );
    expect(a.items.map((i: any) => i.keyword)).toEqual(['running shoes', 'tea']);
    const b = result(await volume({ keywords: ['tea'], location_name: 'United States', language_name: 'English' }));
    expect(b.items[0]).toEqual(a.items[1]);
    const item = a.items[0];
    expect(item.monthly_searches).toHaveLength(12);
    expect(item.search_volume).toBe(
      Math.round(item.monthly_searches.reduce((s: number, m: any) => s + m.search_volume, 0) / 12),
    );
    expect(a).toMatchObject({ location_code: 2840, language_code: 'en', items_count: 2 });
  });

  it('use_clickstream false uses ad-engine volume where the location supports it', async () => {
    const us = result(
      await volume({ keywords: ['tea'], location_code: 2840, language_code: 'en', use_clickstream: false }),
    );
    expect(us.items[0].use_clickstream).toBe(false);
    const nl = result(
      await volume({ keywords: ['tea'], location_code: 2528, language_code: 'nl', use_clickstream: false }),
    );
    expect(nl.items[0].use_clickstream).toBe(true);
  });

  it.each([
    [{ keywords: Array.from({ length: 1000 }, (_, i) => `k${i}`), location_code: 2840, language_code: 'en' }, 20000],
    [{ keywords: Array.from({ length: 1001 }, (_, i) => `k${i}`), location_code: 2840, language_code: 'en' }, 40503],
    [{ keywords: ['tea'], language_code: 'en' }, 40501],
    [{ keywords: ['tea'], location_code: 2840 }, 40501],
    [{ keywords: ['tea'], location_code: 1, language_code: 'en' }, 40503],
  ])('limits: keywords %#', async (task, code) => {
    expect(taskError(await volume(task)).status_code).toBe(code);
  });
});
