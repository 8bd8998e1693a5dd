import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { importedRowsText, importVersion, replaceImported } from '../../../src/server/store/beta-data.repo.js';
import { betaSpeedMigration } from '../../../src/server/store/migrations/0020-beta-speed.js';
import { readRecords } from '../../../src/server/providers/beta/import/read-records.js';
import { rowsBySubject } from '../../../src/server/providers/beta/import/families.js';
import { localSeoProvider } from '../../../src/server/providers/beta/local/seo-local.js';
import { indexStats } from '../../../src/server/providers/beta/local/backlink-index.js';

/**
 * An imported target (the way to a real 1M-row list) is read from the store and indexed once per
 * import, not on every request: the store names each import by a version (migration 0020), the
 * provider reads only that per request, and the CPU worker keeps the import's rows and index.
 */

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const links = (n: number) =>
  rowsBySubject('backlinks', readRecords('once.jsonl', Array.from({ length: n }, (_, i) => JSON.stringify({ target: 'once.example', url_from: `https://s${i % 7}.example/${i}`, url_to: 'https://once.example/', rank: (i * 37) % 1000, dofollow: i % 3 > 0 })).join('\n')));

describeOnStores('imported backlinks, indexed once per import', (stores) => {
  const open = async () => {
    const s = await stores.open();
    opened.push(s);
    return s;
  };

  it('builds an imported target\'s index once per import, not on every request', async () => {
    const store = await open();
    let rowReads = 0;
    const seo = localSeoProvider(new Uint8Array(32), {
      version: (s) => importVersion(store.db, 'backlinks', s),
      rows: (s) => {
        rowReads++;
        return importedRowsText(store.db, 'backlinks', s);
      },
    });
    const run = async (task: Record<string, unknown>) => ((await seo.post('backlinks', '/b', [task])).tasks[0].result as any[])[0];
    await replaceImported(store.db, 'backlinks', links(40));
    const before = indexStats.built;
    expect((await run({ target: 'once.example', filters: ['rank', '>', 500] })).total_count).toBe(14);
    expect((await run({ target: 'once.example', filters: ['dofollow', '=', true], order_by: ['rank,asc'] })).items[0].rank).toBe(36);
    expect((await run({ target: 'once.example' })).total_count).toBe(40);
    expect(indexStats.built - before).toBe(1);
    expect(rowReads).toBe(1);
    // A new import is a new version: its rows are read and indexed once, then kept in turn.
    await replaceImported(store.db, 'backlinks', links(10));
    expect((await run({ target: 'once.example' })).total_count).toBe(10);
    expect((await run({ target: 'once.example', filters: ['rank', '<', 100] })).total_count).toBe(3);
    expect(indexStats.built - before).toBe(2);
    expect(rowReads).toBe(2);
  });

  it('reads a large import page by page, keeping file order across pages, and lets the event loop run meanwhile', async () => {
    const store = await open();
    const n = 12_345;
    await replaceImported(store.db, 'backlinks', new Map([['big.example', Array.from({ length: n }, (_, i) => ({ url_from: `https://s${i}.example/`, n: i }))]]));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const text = await importedRowsText(store.db, 'backlinks', 'big.example');
    clearInterval(timer);
    const rows = text!.chunks.flatMap((c) => new TextDecoder().decode(c).split('\n')).map((line) => JSON.parse(line).n as number);
    expect(rows).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(text!.chunks.length).toBe(3);
    // Timers ran between the pages: the read did not hold the event loop from start to end.
    expect(ticks).toBeGreaterThan(0);
  });

  it('names each import with a new version, and the migration gives subjects imported before it one', async () => {
    const store = await open();
    expect(await importVersion(store.db, 'backlinks', 'once.example')).toBeNull();
    expect(await importedRowsText(store.db, 'backlinks', 'once.example')).toBeNull();
    await replaceImported(store.db, 'backlinks', links(3));
    const v1 = await importVersion(store.db, 'backlinks', 'once.example');
    const text = await importedRowsText(store.db, 'backlinks', 'once.example');
    expect(text?.version).toBe(v1);
    const lines = text!.chunks.flatMap((c) => new TextDecoder().decode(c).split('\n'));
    expect(lines.map((r) => JSON.parse(r).url_from)).toEqual(['https://s0.example/0', 'https://s1.example/1', 'https://s2.example/2']);
    await replaceImported(store.db, 'backlinks', links(3));
    expect(await importVersion(store.db, 'backlinks', 'once.example')).not.toBe(v1);
    // A store whose rows were imported before 0020: the migration names their import.
    await store.db.schema.dropTable('beta_data_imports').execute();
    await betaSpeedMigration.up(store.db);
    expect(await importVersion(store.db, 'backlinks', 'once.example')).toMatch(/./);
    expect(await store.db.selectFrom('beta_data_imports').select(['family', 'subject', 'row_count']).execute()).toEqual([{ family: 'backlinks', subject: 'once.example', row_count: 3 }]);
  });
});
