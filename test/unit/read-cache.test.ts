import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { ReadCache } from '../../src/server/store/read-cache.js';

const db = {} as Kysely<any>;

describe('ReadCache', () => {
  it('serves a loaded value until a write drops it', async () => {
    const cache = new ReadCache<number>(60_000);
    let source = 1;
    const load = async () => source;
    expect(await cache.get(db, 'k', load)).toBe(1);
    source = 2;
    expect(await cache.get(db, 'k', load)).toBe(1);
    cache.clear(db);
    expect(await cache.get(db, 'k', load)).toBe(2);
  });

  it('does not keep what a load read before a write that finished while it waited', async () => {
    const cache = new ReadCache<number>(60_000);
    let source = 1;
    let release!: () => void;
    const slow = cache.get(db, 'k', async () => {
      const seen = source;
      await new Promise<void>((r) => (release = r));
      return seen;
    });
    source = 2;
    cache.delete(db, 'k'); // the write lands while the read is in flight
    release();
    expect(await slow).toBe(1);
    expect(await cache.get(db, 'k', async () => source)).toBe(2);
  });

  it('expires entries after their lifetime', async () => {
    const cache = new ReadCache<number>(0);
    let source = 1;
    await cache.get(db, 'k', async () => source);
    source = 2;
    expect(await cache.get(db, 'k', async () => source)).toBe(2);
  });

  it('drops the least recently used entry when full, not everything it holds', async () => {
    const cache = new ReadCache<string>(60_000, 2);
    const loads: string[] = [];
    const load = (k: string) => async () => (loads.push(k), k);
    await cache.get(db, 'a', load('a'));
    await cache.get(db, 'b', load('b'));
    await cache.get(db, 'a', load('a')); // a hit: a is now the most recent
    await cache.get(db, 'c', load('c')); // full: b goes
    expect(cache.peek(db, 'a')).toBe('a');
    expect(cache.peek(db, 'c')).toBe('c');
    expect(cache.peek(db, 'b')).toBeUndefined();
    expect(loads).toEqual(['a', 'b', 'c']);
  });
});
