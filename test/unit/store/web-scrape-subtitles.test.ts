import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { completeKey, dropKey, findKey, reserveKey } from '../../../src/server/store/idempotency.repo.js';
import {
  countPages,
  failInterrupted,
  finishPage,
  insertScrape,
  pendingPages,
  startPage,
} from '../../../src/server/store/scrape.repo.js';
import { findCached, putCached } from '../../../src/server/store/web-cache.repo.js';
import { putTrack, putTrackIfAbsent, tracksOf } from '../../../src/server/store/subtitles.repo.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const at = '2026-01-01T00:00:00.000Z';

describeOnStores('web extraction, batch scrape and subtitle stores', (stores) => {
  const open = async () => {
    const s = await stores.open();
    opened.push(s);
    return s;
  };

  it('an Idempotency-Key is taken once per scope, even by racing first uses', async () => {
    const s = await open();
    const row = {
      scope: 'key:k1',
      key: 'abc',
      request_hash: 'h1',
      created_at: at,
      expires_at: '2026-01-02T00:00:00.000Z',
    };
    const wins = await Promise.all(Array.from({ length: 8 }, () => reserveKey(s.db, row)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await findKey(s.db, 'key:k1', 'abc')).toMatchObject({ state: 'pending', job_id: null });
    expect(await reserveKey(s.db, { ...row, scope: 'key:k2' })).toBe(true);
    await completeKey(s.db, 'key:k1', 'abc', 'bsj_1');
    expect(await findKey(s.db, 'key:k1', 'abc')).toMatchObject({ state: 'done', job_id: 'bsj_1' });
    // Only an expired or abandoned (still pending) key is dropped by the conditional forms.
    await dropKey(s.db, 'key:k1', 'abc', { expiredBy: at });
    await dropKey(s.db, 'key:k1', 'abc', { createdBefore: '2026-06-01T00:00:00.000Z' });
    expect(await findKey(s.db, 'key:k1', 'abc')).toBeDefined();
    await dropKey(s.db, 'key:k1', 'abc', { expiredBy: '2026-01-02T00:00:00.000Z' });
    expect(await findKey(s.db, 'key:k1', 'abc')).toBeUndefined();
  });

  it('scrape pages move pending → started → done|failed once; interrupted ones are failed, not redone', async () => {
    const s = await open();
    const urls = Array.from({ length: 450 }, (_, i) => `https://example.com/${i}`);
    await insertScrape(
      s.db,
      { id: 'bsj_1', user_id: 'u', api_key_id: null, request: '{}', total: urls.length, created_at: at },
      urls,
    );
    expect(await pendingPages(s.db, 'bsj_1')).toHaveLength(450);
    expect(await startPage(s.db, 'bsj_1', 0)).toBe(true);
    expect(await startPage(s.db, 'bsj_1', 0)).toBe(false);
    await finishPage(s.db, 'bsj_1', 0, { state: 'done', result: '{}', error: null, at });
    expect(await startPage(s.db, 'bsj_1', 1)).toBe(true);
    expect(await failInterrupted(s.db, 'bsj_1', 'gone', at)).toBe(1);
    expect(await startPage(s.db, 'bsj_1', 1)).toBe(false);
    expect(await countPages(s.db, 'bsj_1')).toEqual({ done: 1, failed: 1, total: 450 });
    expect((await pendingPages(s.db, 'bsj_1'))[0]).toEqual({ idx: 2, url: 'https://example.com/2' });
  });

  it('the extraction cache replaces by key; subtitle tracks by video, language and kind', async () => {
    const s = await open();
    await putCached(s.db, { key: 'k', url: 'u', result: '1', created_at: at });
    await putCached(s.db, { key: 'k', url: 'u', result: '2', created_at: at });
    expect(await findCached(s.db, 'k')).toEqual({ result: '2', created_at: at });
    const track = {
      video_code: 'v',
      language: 'en',
      kind: 'manual' as const,
      title: 't',
      cues: '[]',
      source: 'seed' as const,
      created_at: at,
    };
    await putTrackIfAbsent(s.db, track);
    await putTrackIfAbsent(s.db, { ...track, title: 'not this' });
    await putTrack(s.db, { ...track, kind: 'generated', title: 'gen' });
    expect((await tracksOf(s.db, 'v')).map((t) => [t.kind, t.title])).toEqual([
      ['manual', 't'],
      ['generated', 'gen'],
    ]);
  });
});
