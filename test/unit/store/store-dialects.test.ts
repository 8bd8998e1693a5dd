import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases, describePostgres, createTestDatabase } from '../../helpers/postgres.js';
import { openStore } from '../../../src/server/store/store.js';
import { insertUser, countUsers, findUserById } from '../../../src/server/store/users.repo.js';
import {
  insertApiKeyWithinLimit,
  findLiveKeyByHash,
  listLiveKeys,
  updateApiKey,
} from '../../../src/server/store/api-keys.repo.js';
import { insertUsage, sumUsageByKeyAndModel } from '../../../src/server/store/usage.repo.js';
import { countIn, increment, dropBefore } from '../../../src/server/store/rate-limits.repo.js';
import { checkChatLimit } from '../../../src/server/auth/rate-limit.js';
import { getSetting, setSetting } from '../../../src/server/store/settings.repo.js';
import { listModelListing, setModelListing } from '../../../src/server/store/model-listing.repo.js';
import {
  insertLiveDoc,
  deleteLiveDoc,
  share,
  isSharedWith,
  pageVisible,
} from '../../../src/server/store/livedocs.repo.js';
import { insertDefaultProject } from '../../../src/server/store/projects.repo.js';
import { insertResource, newestPerLiveDoc } from '../../../src/server/store/resources.repo.js';
import {
  insertStream,
  insertEventBatch,
  eventsFrom,
  lastSeq,
  terminalEvent,
  deleteExpiredBefore,
} from '../../../src/server/store/streams.repo.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const at = '2026-01-01T00:00:00.000Z';

async function seedUser(store: Store, id = 'u1') {
  await insertUser(store.db, { id, name: `user-${id}`, role: 'user', plan: 'free', credits: 5, created_at: at });
}

describeOnStores('store repositories', (stores) => {
  const open = async () => {
    const s = await stores.open();
    opened.push(s);
    return s;
  };

  it('keeps users and keys; counts come back as numbers', async () => {
    const s = await open();
    await seedUser(s);
    expect(await countUsers(s.db)).toBe(1);
    expect(typeof (await countUsers(s.db))).toBe('number');
    expect(await findUserById(s.db, 'u1')).toMatchObject({ credits: 5 });
    const key = {
      id: 'k1',
      user_id: 'u1',
      name: 'one',
      prefix: 'fk_1',
      hash: 'h1',
      status: 'active' as const,
      created_at: at,
      expires_at: null,
      frozen_at: null,
      last_used_at: null,
      deleted_at: null,
    };
    expect(await insertApiKeyWithinLimit(s.db, key, 1, at)).toBe(true);
    expect(await insertApiKeyWithinLimit(s.db, { ...key, id: 'k2', hash: 'h2' }, 1, at)).toBe(false);
    expect(await findLiveKeyByHash(s.db, 'h1')).toMatchObject({ id: 'k1', status: 'active' });
    await updateApiKey(s.db, 'k1', { status: 'frozen', frozen_at: at });
    expect((await findLiveKeyByHash(s.db, 'h1'))?.status).toBe('frozen');
    expect((await listLiveKeys(s.db, { userId: 'u1' })).map((k) => k.id)).toEqual(['k1']);
  });

  it('lets concurrent key creates take only the places left, and concurrent chat requests only the window', async () => {
    const s = await open();
    await seedUser(s);
    const key = (i: number) => ({
      id: `k${i}`,
      user_id: 'u1',
      name: `k${i}`,
      prefix: 'fk',
      hash: `h${i}`,
      status: 'active' as const,
      created_at: at,
      expires_at: null,
      frozen_at: null,
      last_used_at: null,
      deleted_at: null,
    });
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => insertApiKeyWithinLimit(s.db, key(i), 4, at)));
    expect(made.filter(Boolean)).toHaveLength(4);
    const limits = { perKeyPerMinute: 3, perUserPerMinute: 100, perUserPerHour: 100 };
    const now = new Date('2026-01-01T00:00:10.000Z');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => checkChatLimit(s.db, limits, { keyId: 'k0', userId: 'u1' }, now, true)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    const minute = Math.floor(now.getTime() / 60_000) * 60;
    expect(await countIn(s.db, 'chat:key:k0:60', minute)).toBe(3);
  });

  it('sums usage past 2^31 nano-dollars as numbers', async () => {
    const s = await open();
    await seedUser(s);
    const row = {
      api_key_id: 'k1',
      user_id: 'u1',
      task_id: null,
      model: 'm',
      operation: 'chat',
      input_tokens: 10,
      output_tokens: 20,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      web_searches: 1,
      cost_nano_usd: 3_000_000_000,
      created_at: at,
    };
    await insertUsage(s.db, row);
    await insertUsage(s.db, { ...row, created_at: '2026-01-02T00:00:00.000Z' });
    const [sum] = await sumUsageByKeyAndModel(s.db, { userId: 'u1' });
    expect(sum).toMatchObject({
      calls: 2,
      input_tokens: 20,
      output_tokens: 40,
      web_searches: 2,
      cost_nano_usd: 6_000_000_000,
      first_call_at: at,
    });
  });

  it('upserts: rate-limit counters, settings, model listing, shares and default projects', async () => {
    const s = await open();
    await seedUser(s);
    await seedUser(s, 'u2');
    for (let i = 0; i < 3; i++) await increment(s.db, 'b', 60);
    await increment(s.db, 'b', 0);
    expect(await countIn(s.db, 'b', 60)).toBe(3);
    await dropBefore(s.db, 'b', 60);
    expect(await countIn(s.db, 'b', 0)).toBe(0);
    await setSetting(s.db, 'x', '1');
    await setSetting(s.db, 'x', '2');
    expect(await getSetting(s.db, 'x')).toBe('2');
    await setModelListing(s.db, 'm1', false, at, null);
    await setModelListing(s.db, 'm1', true, at, 'u1');
    expect(await listModelListing(s.db)).toEqual(new Map([['m1', true]]));
    await insertLiveDoc(s.db, {
      id: 'ld1',
      owner_id: 'u1',
      name: 'Doc',
      description: '',
      icon: '',
      created_at: at,
      modified_at: at,
    });
    await share(s.db, 'ld1', 'u2', at);
    await share(s.db, 'ld1', 'u2', at);
    expect(await isSharedWith(s.db, 'ld1', 'u2')).toBe(true);
    expect((await pageVisible(s.db, 'u2', { offset: 0, limit: 10 })).total).toBe(1);
    // the keyword filter ignores case and reads % and _ literally, on both stores
    expect((await pageVisible(s.db, 'u2', { keyword: 'dOC', offset: 0, limit: 10 })).total).toBe(1);
    expect((await pageVisible(s.db, 'u2', { keyword: 'D_c', offset: 0, limit: 10 })).total).toBe(0);
    expect((await pageVisible(s.db, 'u2', { keyword: '%', offset: 0, limit: 10 })).total).toBe(0);
    const project = {
      id: 'p1',
      user_id: 'u1',
      name: 'Default',
      description: null,
      default_for: 'user',
      created_at: at,
      updated_at: at,
    };
    expect((await insertDefaultProject(s.db, project)).id).toBe('p1');
    expect((await insertDefaultProject(s.db, { ...project, id: 'p2' })).id).toBe('p1');
  });

  it('pages LiveDocs from a maintained total: every row once, newest first, owned and shared merged, after creates and deletes', async () => {
    const s = await open();
    await seedUser(s, 'u1');
    await seedUser(s, 'u2');
    const doc = (id: string, owner: string, minute: number) => ({
      id,
      owner_id: owner,
      name: id,
      description: '',
      icon: '',
      created_at: at,
      modified_at: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`,
    });
    // A seeded order of creates and deletes, u1's own LiveDocs interleaved with u2's shared ones.
    const alive = new Map<string, string>();
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 60; i++) {
      const owner = next() % 3 === 0 ? 'u2' : 'u1';
      const row = doc(`ld${String(i).padStart(2, '0')}`, owner, next() % 50);
      await insertLiveDoc(s.db, row);
      alive.set(row.id, row.modified_at);
      if (owner === 'u2' && next() % 2 === 0) await share(s.db, row.id, 'u1', at);
      else if (owner === 'u2') alive.delete(row.id);
      if (i % 7 === 6) {
        const victim = [...alive.keys()][next() % alive.size];
        await deleteLiveDoc(s.db, victim);
        alive.delete(victim);
      }
    }
    const expected = [...alive.entries()]
      .sort((a, b) => (a[1] === b[1] ? (a[0] < b[0] ? 1 : -1) : a[1] < b[1] ? 1 : -1))
      .map(([id]) => id);
    const seen: string[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await pageVisible(s.db, 'u1', { offset, limit: 7 });
      expect(page.total).toBe(expected.length);
      if (page.rows.length === 0) break;
      seen.push(...page.rows.map((r) => r.id));
    }
    expect(seen).toEqual(expected);
  });

  it('gives each LiveDoc of a page its newest resources, at most perDoc of them, in one query', async () => {
    const s = await open();
    await seedUser(s, 'u1');
    for (const id of ['ldA', 'ldB', 'ldC'])
      await insertLiveDoc(s.db, {
        id,
        owner_id: 'u1',
        name: id,
        description: '',
        icon: '',
        created_at: at,
        modified_at: at,
      });
    const resource = (id: string, livedoc: string, minute: number) => ({
      id,
      livedoc_id: livedoc,
      title: id,
      link: '',
      snippet: `about ${id}`,
      thumbnail: '',
      resource_type: 'ai_doc',
      resource_key: `doc:${id}`,
      status: 'completed',
      source: 'doc',
      content_type: 'text',
      text: null,
      file_path: null,
      file_name: null,
      mime_type: null,
      created_at: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`,
      modified_at: at,
    });
    for (let i = 0; i < 8; i++) await insertResource(s.db, resource(`a${i}`, 'ldA', (i * 7) % 8));
    await insertResource(s.db, resource('b0', 'ldB', 3));
    const newest = await newestPerLiveDoc(s.db, ['ldA', 'ldB', 'ldC'], 3);
    // minutes of a0..a7: 0 7 6 5 4 3 2 1 -> the newest three are a1 (7), a2 (6), a3 (5)
    expect(newest.get('ldA')?.map((r) => r.title)).toEqual(['a1', 'a2', 'a3']);
    expect(newest.get('ldB')).toEqual([{ title: 'b0', snippet: 'about b0', link: '' }]);
    expect(newest.get('ldC')).toBeUndefined();
  });

  it('keeps a stream event log: replay from an offset, last seq, terminal event, expiry', async () => {
    const s = await open();
    await insertStream(s.db, {
      key: 's1',
      user_id: 'u1',
      status: 'open',
      created_at: at,
      expires_at: at,
      writer: null,
    });
    expect(await lastSeq(s.db, 's1')).toBe(-1);
    const events = Array.from({ length: 450 }, (_, seq) => ({
      stream_key: 's1',
      seq,
      type: seq === 449 ? 'done' : 'delta',
      data: JSON.stringify({ seq }),
    }));
    await insertEventBatch(s.db, events, [{ key: 's1', status: 'done' }]);
    expect(await lastSeq(s.db, 's1')).toBe(449);
    expect((await eventsFrom(s.db, 's1', 440)).map((e) => e.seq)).toEqual([
      440, 441, 442, 443, 444, 445, 446, 447, 448, 449,
    ]);
    expect((await terminalEvent(s.db, 's1'))?.seq).toBe(449);
    expect(await deleteExpiredBefore(s.db, '2027-01-01T00:00:00.000Z')).toBe(1);
    expect(await eventsFrom(s.db, 's1', 0)).toEqual([]);
  });
});

describePostgres('migrations on PostgreSQL', () => {
  it('run once when two stores open a fresh database at the same moment, and again find nothing to do', async () => {
    const url = await createTestDatabase();
    const [a, b] = await Promise.all([
      openStore({ dataDir: null, databaseUrl: url }),
      openStore({ dataDir: null, databaseUrl: url }),
    ]);
    opened.push(a, b);
    await seedUser(a);
    expect(await countUsers(b.db)).toBe(1);
    const c = await openStore({ dataDir: null, databaseUrl: url });
    opened.push(c);
    expect(await countUsers(c.db)).toBe(1);
    const applied = await c.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(applied.length).toBeGreaterThan(3);
  });

  it('explains a database it cannot reach', async () => {
    await expect(
      openStore({ dataDir: null, databaseUrl: 'postgres://nobody:secret@127.0.0.1:1/none' }),
    ).rejects.toThrow(/cannot reach PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/);
  });
});
