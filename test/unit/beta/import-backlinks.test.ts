import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { localSeoProvider } from '../../../src/server/providers/beta/local/seo-local.js';
import { importText } from '../../helpers/import-text.js';

let store: Store;
beforeAll(async () => {
  store = await openStore({ dataDir: null });
});
afterAll(() => store?.close());

describe('imported backlinks', () => {
  it('replace the generated list of their target, and filters, order and modes apply to them', async () => {
    const csv = [
      'target,url_from,url_to,rank,dofollow,anchor,attributes',
      'mine.example,https://a.example/x,https://mine.example/,300,true,Mine home,',
      'mine.example,https://b.example/y,https://mine.example/p,700,false,mine pricing,nofollow|ugc',
      'mine.example,https://a.example/z,https://mine.example/q,500,true,"mine, docs",',
    ].join('\n');
    await importText(store.db, 'backlinks', 'links.csv', csv);
    const seo = localSeoProvider(new Uint8Array(32), store.db);
    const run = async (task: Record<string, unknown>) =>
      ((await seo.post('backlinks', '/b', [task])).tasks[0].result as any[])[0];
    const all = await run({ target: 'mine.example' });
    expect(all.total_count).toBe(3);
    expect(all.items.map((i: any) => i.rank)).toEqual([700, 500, 300]);
    expect(all.items[0].attributes).toEqual(['nofollow', 'ugc']);
    const filtered = await run({
      target: 'mine.example',
      filters: [['dofollow', '=', true], 'and', ['anchor', 'ilike', 'mine%']],
      order_by: ['rank,asc'],
    });
    expect(filtered.items.map((i: any) => i.url_from)).toEqual(['https://a.example/x', 'https://a.example/z']);
    expect((await run({ target: 'mine.example', mode: 'one_per_domain' })).total_count).toBe(2);
    // Re-importing replaces; other targets keep their generated data.
    await importText(
      store.db,
      'backlinks',
      'one.jsonl',
      JSON.stringify({ target: 'mine.example', url_from: 'https://c.example/', url_to: 'https://mine.example/' }),
    );
    expect((await run({ target: 'mine.example' })).total_count).toBe(1);
    expect((await run({ target: 'example.com' })).total_count).toBeGreaterThan(100);
  });

  it('show no date where the record gave none (null, not 1970-01-01), and sort and filter those last', async () => {
    const csv = [
      'target,url_from,url_to,first_seen,last_seen',
      'dated.example,https://a.example/1,https://dated.example/,2024-03-01 10:00:00 +00:00,2025-01-02 00:00:00 +00:00',
      'dated.example,https://b.example/2,https://dated.example/,,',
    ].join('\n');
    await importText(store.db, 'backlinks', 'dates.csv', csv);
    const seo = localSeoProvider(new Uint8Array(32), store.db);
    const run = async (task: Record<string, unknown>) =>
      ((await seo.post('backlinks', '/b', [task])).tasks[0].result as any[])[0];
    const all = await run({ target: 'dated.example', order_by: ['first_seen,desc'] });
    expect(all.items.map((i: any) => [i.url_from, i.first_seen, i.last_seen])).toEqual([
      ['https://a.example/1', '2024-03-01 10:00:00 +00:00', '2025-01-02 00:00:00 +00:00'],
      ['https://b.example/2', null, null],
    ]);
    expect(JSON.stringify(all)).not.toMatch(/1970/);
    expect(
      (await run({ target: 'dated.example', filters: ['first_seen', '>', '2020-01-01 00:00:00 +00:00'] })).total_count,
    ).toBe(1);
    expect(
      (await run({ target: 'dated.example', filters: ['first_seen', '=', null] })).items.map((i: any) => i.url_from),
    ).toEqual(['https://b.example/2']);
  });

  it('refuses a record of the wrong type, naming it', async () => {
    await expect(
      importText(
        store.db,
        'backlinks',
        'l.jsonl',
        JSON.stringify({ target: 'x.example', url_from: 'https://a/', url_to: 'https://x.example/', rank: 'high' }),
      ),
    ).rejects.toThrow(/line 1, record 1: rank must be a number/);
    await expect(
      importText(
        store.db,
        'backlinks',
        'l.jsonl',
        JSON.stringify({ target: 'www.x.example', url_from: 'https://a/', url_to: 'https://x/' }),
      ),
    ).rejects.toThrow(/record 1: target/);
  });
});
