import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../../../src/server/json-text.js';
import { changed, registerStoreProbe, ViewCache } from '../../../src/server/store/view-cache.js';

function store() {
  const db = {} as Kysely<any>;
  const state = { tx: false, foreign: 0 };
  registerStoreProbe(db, { inTransaction: () => state.tx, foreignCommits: () => state.foreign });
  return { db, state };
}

describe('ViewCache', () => {
  it('serves an answer until its topic or another connection moves', async () => {
    const { db, state } = store();
    const cache = new ViewCache('keys');
    let loads = 0;
    const load = async () => new JsonText(`{"n":${++loads}}`);
    expect((await cache.get(db, 'p', load)).text).toBe('{"n":1}');
    expect((await cache.get(db, 'p', load)).text).toBe('{"n":1}');
    changed('keys');
    expect((await cache.get(db, 'p', load)).text).toBe('{"n":2}');
    state.foreign++;
    expect((await cache.get(db, 'p', load)).text).toBe('{"n":3}');
  });

  it('keeps answers within its character budget, the least recently used going first', async () => {
    const { db } = store();
    const cache = new ViewCache('livedocs', 25);
    const loads: string[] = [];
    const load = (k: string) => async () => (loads.push(k), new JsonText(k.repeat(10)));
    await cache.get(db, 'a', load('a'));
    await cache.get(db, 'b', load('b'));
    await cache.get(db, 'a', load('a')); // served: a is the most recent
    await cache.get(db, 'c', load('c')); // 30 characters: b goes
    await cache.get(db, 'a', load('a'));
    await cache.get(db, 'b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
    // An answer larger than the whole budget is answered, never kept.
    await cache.get(db, 'big', load('x'.repeat(3)));
    await cache.get(db, 'big', load('x'.repeat(3)));
    expect(loads.slice(4)).toEqual(['xxx', 'xxx']);
  });
});
