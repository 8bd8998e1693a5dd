import { Readable } from 'node:stream';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { importText } from '../../helpers/import-text.js';
import { backlinkSet } from '../../../src/server/store/beta-backlinks.repo.js';
import { betaBacklinksMigration } from '../../../src/server/store/migrations/0027-beta-backlinks.js';
import { importFile } from '../../../src/server/providers/beta/import/import-file.js';
import { localSeoProvider } from '../../../src/server/providers/beta/local/seo-local.js';

/**
 * Imported backlinks live in the store's backlinks tables (migration 0027), written as the file
 * streams in: a subject gets exactly the file's rows and a new version per import, a bad record
 * anywhere leaves every subject as it was, and rows imported before 0027 move into the tables.
 */

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const links = (n: number, bad = -1) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      target: 'once.example',
      url_from: `https://s${i % 7}.example/${i}`,
      url_to: 'https://once.example/',
      rank: i === bad ? 'high' : (i * 37) % 1000,
      dofollow: i % 3 > 0,
    }),
  ).join('\n');

describeOnStores('imported backlinks in the store', (stores) => {
  const open = async () => {
    const s = await stores.open();
    opened.push(s);
    return s;
  };

  it('answers filters over an import, and a new import replaces it under a new version', async () => {
    const store = await open();
    const seo = localSeoProvider(new Uint8Array(32), store.db);
    const run = async (task: Record<string, unknown>) =>
      ((await seo.post('backlinks', '/b', [task])).tasks[0].result as any[])[0];
    expect(await importText(store.db, 'backlinks', 'once.jsonl', links(40))).toEqual({
      subjects: ['once.example'],
      rows: 40,
    });
    const v1 = (await backlinkSet(store.db, 'once.example'))!;
    expect(v1).toMatchObject({ origin: 'imported', row_count: 40 });
    expect((await run({ target: 'once.example', filters: ['rank', '>', 500] })).total_count).toBe(14);
    expect(
      (await run({ target: 'once.example', filters: ['dofollow', '=', true], order_by: ['rank,asc'] })).items[0].rank,
    ).toBe(36);
    expect((await run({ target: 'once.example' })).total_count).toBe(40);
    await importText(store.db, 'backlinks', 'once.jsonl', links(10));
    expect((await backlinkSet(store.db, 'once.example'))!.version).not.toBe(v1.version);
    expect((await run({ target: 'once.example' })).total_count).toBe(10);
    expect((await run({ target: 'once.example', filters: ['rank', '<', 100] })).total_count).toBe(3);
  });

  it('leaves every subject as it was when a record late in the file is bad, naming its line', async () => {
    const store = await open();
    await importText(store.db, 'backlinks', 'once.jsonl', links(5));
    // More rows than one insert batch come before the bad one: they were written, then rolled back.
    await expect(importText(store.db, 'backlinks', 'once.jsonl', links(1200, 1100))).rejects.toThrow(
      /line 1101, record 1101: rank must be a number/,
    );
    expect(await backlinkSet(store.db, 'once.example')).toMatchObject({ row_count: 5 });
    expect(
      Number(
        (
          await store.db
            .selectFrom('beta_backlinks')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(5);
  });

  it('reads CSV with a BOM, quoted newlines and commas, and names the line of a bad row', async () => {
    const store = await open();
    const csv =
      '\ufefftarget,url_from,url_to,anchor\nq.example,https://a.example/,https://q.example/,"two\nlines, one anchor"\n\nq.example,https://b.example/,https://q.example/,plain\n';
    expect(await importText(store.db, 'backlinks', 'q.csv', csv, 3)).toEqual({ subjects: ['q.example'], rows: 2 });
    const seo = localSeoProvider(new Uint8Array(32), store.db);
    const res = (
      (await seo.post('backlinks', '/b', [{ target: 'q.example', order_by: ['anchor,desc'] }])).tasks[0].result as any[]
    )[0];
    expect(res.items.map((i: any) => i.anchor)).toEqual(['two\nlines, one anchor', 'plain']);
    await expect(
      importText(store.db, 'backlinks', 'q.csv', 'target,url_from,url_to\nq.example,https://a.example/\n'),
    ).rejects.toThrow(/CSV line 2: 2 cells for 3 columns/);
    await expect(
      importText(store.db, 'backlinks', 'q.csv', 'target,url_from,url_to\nq.example,"https://a.example/\n'),
    ).rejects.toThrow(/^CSV: .*quote/i);
    await expect(importText(store.db, 'backlinks', 'q.csv', '')).rejects.toThrow(/CSV: the file is empty/);
    expect(await backlinkSet(store.db, 'q.example')).toMatchObject({ row_count: 2 });
  });

  it('refuses a CSV record past its size bound without reading on', async () => {
    const store = await open();
    let served = 0;
    // A quote that never closes: the parser stops at the bound, not at the end of a long stream.
    const endless = Readable.from(
      (function* () {
        yield 'target,url_from,url_to\nq.example,"';
        for (; served < 10_000; served++) yield 'x'.repeat(1024);
      })(),
    );
    await expect(importFile(store.db, 'backlinks', 'big.csv', endless)).rejects.toThrow(/CSV: .*(size|length)/i);
    expect(served).toBeLessThan(2_000);
  });

  it('moves backlinks imported before migration 0027 into the tables', async () => {
    const store = await open();
    await store.db.schema.dropTable('beta_backlinks').execute();
    await store.db.schema.dropTable('beta_backlink_sets').execute();
    const row = {
      url_from: 'https://old.example/a',
      url_to: 'https://kept.example/',
      domain_from: 'old.example',
      rank: 420,
      dofollow: true,
      attributes: ['ugc'],
      first_seen: null,
      internal: false,
      to_subdomain: false,
    };
    await store.db
      .insertInto('beta_data_rows')
      .values({ family: 'backlinks', subject: 'kept.example', seq: 0, data: JSON.stringify(row) })
      .execute();
    await store.db
      .insertInto('beta_data_imports')
      .values({
        family: 'backlinks',
        subject: 'kept.example',
        version: 'v-old',
        row_count: 1,
        imported_at: new Date().toISOString(),
      })
      .execute();
    await betaBacklinksMigration.up(store.db);
    expect(await backlinkSet(store.db, 'kept.example')).toEqual({ origin: 'imported', version: 'v-old', row_count: 1 });
    expect(await store.db.selectFrom('beta_data_rows').selectAll().execute()).toEqual([]);
    const seo = localSeoProvider(new Uint8Array(32), store.db);
    const res = (
      (await seo.post('backlinks', '/b', [{ target: 'kept.example', rank_scale: 'one_hundred' }])).tasks[0]
        .result as any[]
    )[0];
    expect(res.items).toEqual([
      expect.objectContaining({
        url_from: 'https://old.example/a',
        rank: 42,
        dofollow: true,
        attributes: ['ugc'],
        first_seen: null,
      }),
    ]);
  });
});
