import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { LRUCache } from 'lru-cache';
import { cachesTrusted, onCacheInvalidation } from './cache-bus.js';

/**
 * A short-lived cache of rows a repository reads on every request, per store. The repository's own
 * writes drop entries at once, so this process never serves a stale row after it changed one; the
 * short lifetime bounds what another process can leave stale; on PostgreSQL the writes that must be
 * seen everywhere at once are announced to every process (cache-bus.ts).
 */
export class ReadCache<V> {
  // Bounded by lru-cache; the age is compared with Date.now() here (lru-cache's ttl reads another clock, and 0 there means forever).
  private readonly stores = new WeakMap<Kysely<Database>, LRUCache<string, { value: V; at: number }>>();
  /** Bumped by every write; a load that began before a write does not store what it read. */
  private readonly generations = new WeakMap<Kysely<Database>, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity = 10_000,
  ) {
    onCacheInvalidation((db) => this.clear(db));
  }

  private of(db: Kysely<Database>) {
    let map = this.stores.get(db);
    if (!map) this.stores.set(db, (map = new LRUCache({ max: this.capacity })));
    return map;
  }

  async get(db: Kysely<Database>, key: string, load: () => Promise<V>): Promise<V> {
    // Another process may have changed the row unannounced to us (our listener is down): read it.
    if (!cachesTrusted(db)) return load();
    const map = this.of(db);
    const hit = map.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const generation = this.generations.get(db) ?? 0;
    const value = await load();
    if ((this.generations.get(db) ?? 0) !== generation) return value;
    map.set(key, { value, at: Date.now() });
    return value;
  }

  /** What `get` would answer without loading: the kept value while fresh and trusted, else undefined. */
  peek(db: Kysely<Database>, key: string): V | undefined {
    if (!cachesTrusted(db)) return undefined;
    const hit = this.stores.get(db)?.get(key);
    return hit && Date.now() - hit.at < this.ttlMs ? hit.value : undefined;
  }

  delete(db: Kysely<Database>, key: string): void {
    this.generations.set(db, (this.generations.get(db) ?? 0) + 1);
    this.of(db).delete(key);
  }

  clear(db: Kysely<Database>): void {
    this.generations.set(db, (this.generations.get(db) ?? 0) + 1);
    this.of(db).clear();
  }
}
