import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, afterEach, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import * as livedocs from '../../../src/server/services/livedocs.service.js';
import * as repo from '../../../src/server/store/livedocs.repo.js';
import {
  deleteResource,
  insertResource,
  updateResource,
  type ResourceRow,
} from '../../../src/server/store/resources.repo.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const user = (id: string) => ({
  id,
  name: id,
  role: 'user' as const,
  plan: 'free' as const,
  credits: 0,
  created_at: '2026-01-01T00:00:00.000Z',
});
const page = { page: 1, size: 20 };
let clock = Date.parse('2026-02-01T00:00:00Z');

function resource(id: string, livedocId: string, title: string): ResourceRow {
  const at = new Date(clock++).toISOString();
  return {
    id,
    livedoc_id: livedocId,
    title,
    link: '',
    snippet: `about ${title}`,
    thumbnail: '',
    resource_type: 'doc',
    resource_key: id,
    status: 'ready',
    source: 'test',
    content_type: 'text',
    text: title,
    file_path: null,
    file_name: null,
    mime_type: null,
    created_at: at,
    modified_at: at,
  };
}

describeOnStores('the LiveDoc list and its answer cache', (stores) => {
  async function setup() {
    const s = await stores.open();
    opened.push(s);
    for (const id of ['u1', 'u2']) await insertUser(s.db, user(id));
    const ctx = { db: s.db, now: () => new Date(clock++) };
    const list = async (userId = 'u1', options: { fresh?: boolean } = {}) => {
      const answer = await livedocs.listLiveDocs(ctx, userId, page, options);
      return {
        answer,
        data: JSON.parse(answer.text) as {
          total: number;
          items: Array<{ short_id: string; name: string; is_shared: boolean; readme: { content: string } | null }>;
        },
      };
    };
    return { s, ctx, list };
  }

  it.runIf(stores.dialect === 'sqlite')(
    'serves a page again from memory until something it shows changes',
    async () => {
      const { ctx, list } = await setup();
      await livedocs.createLiveDoc(ctx, 'u1', { name: 'First' });
      const a = await list();
      const b = await list();
      expect(b.answer).toBe(a.answer); // the very same answer, not read again
      expect((await list('u1', { fresh: true })).answer).not.toBe(a.answer); // Cache-Control: no-cache
    },
  );

  it('shows every kind of change on the very next list', async () => {
    const { s, ctx, list } = await setup();
    const doc = await livedocs.createLiveDoc(ctx, 'u1', { name: 'First' });
    expect((await list()).data.items.map((i) => i.name)).toEqual(['First']);

    await livedocs.updateLiveDoc(ctx, 'u1', doc.short_id, { name: 'Renamed' });
    expect((await list()).data.items.map((i) => i.name)).toEqual(['Renamed']);

    await insertResource(s.db, resource('r1', doc.short_id, 'Tides'));
    expect((await list()).data.items[0].readme?.content).toContain('Tides');
    await updateResource(s.db, 'r1', { title: 'Currents' });
    expect((await list()).data.items[0].readme?.content).toContain('Currents');
    await deleteResource(s.db, 'r1');
    expect((await list()).data.items[0].readme).toBeNull();

    const other = await livedocs.createLiveDoc(ctx, 'u2', { name: 'Theirs' });
    expect((await list()).data.total).toBe(1);
    await repo.share(s.db, other.short_id, 'u1', new Date(clock++).toISOString());
    const shared = (await list()).data;
    expect(shared.total).toBe(2);
    expect(shared.items.find((i) => i.name === 'Theirs')?.is_shared).toBe(true);
    await repo.unshare(s.db, other.short_id, 'u1');
    expect((await list()).data.total).toBe(1);

    await livedocs.deleteLiveDoc(ctx, 'u1', doc.short_id);
    expect((await list()).data).toMatchObject({ total: 0, items: [] });
  });

  it('never keeps a page read inside a transaction that is then rolled back', async () => {
    const { s, ctx, list } = await setup();
    await livedocs.createLiveDoc(ctx, 'u1', { name: 'Kept' });
    await list();
    let during: Promise<unknown> | undefined;
    await expect(
      s.db.transaction().execute(async (trx) => {
        await repo.insertLiveDoc(trx, {
          id: 'ld_phantom',
          owner_id: 'u1',
          name: 'Phantom',
          description: '',
          icon: '',
          created_at: '2026-03-01T00:00:00.000Z',
          modified_at: '2026-03-01T00:00:00.000Z',
        });
        // Another request lists while the transaction is open (on SQLite it reads the same connection).
        during = list();
        await new Promise((r) => setTimeout(r, 10));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await during;
    expect((await list()).data.items.map((i) => i.name)).toEqual(['Kept']);
  });
});

it('sees what another connection commits to the data dir (the admin commands beside a running server)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-list-cache-'));
  const s = await openStore({ dataDir: dir });
  try {
    await insertUser(s.db, user('u1'));
    const ctx = { db: s.db, now: () => new Date(clock++) };
    await livedocs.createLiveDoc(ctx, 'u1', { name: 'Mine' });
    const names = async () =>
      (JSON.parse((await livedocs.listLiveDocs(ctx, 'u1', page)).text) as { items: Array<{ name: string }> }).items.map(
        (i) => i.name,
      );
    expect(await names()).toEqual(['Mine']);
    const other = new Sqlite(path.join(dir, 'facet.db'));
    other.prepare("update livedocs set name = 'Renamed elsewhere'").run();
    other.close();
    await new Promise((r) => setTimeout(r, 2)); // the server reads other connections' commits at most once a millisecond
    expect(await names()).toEqual(['Renamed elsewhere']);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
