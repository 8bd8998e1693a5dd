import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { LRUCache } from 'lru-cache';
import type { JsonText } from '../json-text.js';

/**
 * A cache of whole answers (a list page as the client receives it) that is exact rather than
 * short-lived: every repository write to the tables an answer is built from bumps that answer's
 * topic, and an entry is served only while its topic has not moved since it was read.
 *
 * Exact needs every write seen: on SQLite this process makes the server's writes, and the admin
 * commands that write the data dir beside a running server (`facet serve share`, `users create`)
 * are other connections, whose commits SQLite counts (PRAGMA data_version): an entry is served only
 * while that count has not moved either. The store registers both probes; a store that does not
 * (PostgreSQL, where other instances write unseen) is never cached. Writes may run inside a
 * transaction that is later rolled back, so a write bumps its topic before and after the statement,
 * and an answer read while any transaction is open on the connection is not kept: what it saw may
 * never be committed.
 */
export type ViewTopic = 'livedocs' | 'keys';

const versions: Record<ViewTopic, number> = { livedocs: 0, keys: 0 };
export interface StoreProbe {
  /** A transaction is open on the store's one connection. */
  inTransaction(): boolean;
  /** A number that moves whenever another connection commits to the database. */
  foreignCommits(): number;
}

const probes = new WeakMap<Kysely<Database>, StoreProbe>();

/** The SQLite store registers how to see open transactions and other connections' commits. */
export function registerStoreProbe(db: Kysely<Database>, probe: StoreProbe): void {
  probes.set(db, probe);
}

/**
 * Runs a write to a topic's tables with the topic bumped on both sides. Process-wide (not per
 * store): the write may be given a transaction object rather than the store, and bumping too much
 * only costs a cache miss.
 */
export async function changing<T>(topic: ViewTopic, write: () => Promise<T>): Promise<T> {
  versions[topic]++;
  try {
    return await write();
  } finally {
    versions[topic]++;
  }
}

interface Entry {
  version: number;
  foreign: number;
  answer: JsonText;
}

/**
 * Marks a topic changed by a write that has just committed, for repositories that drop their other
 * caches after each write anyway: a page read before the commit may have been kept a moment, and
 * is not served again once this has run (nobody has been told of the write before it runs).
 */
export function changed(topic: ViewTopic): void {
  versions[topic]++;
}

export class ViewCache {
  private readonly stores = new WeakMap<Kysely<Database>, LRUCache<string, Entry>>();

  /** `budget` bounds the characters kept per store (their text; its bytes are kept beside it); the least recently used entries go first past it. */
  constructor(
    private readonly topic: ViewTopic,
    private readonly budget = 8 * 1024 * 1024,
  ) {}

  /**
   * The answer for `key`, from the cache when nothing it was built from changed since: then at once
   * (no promise), as most list requests are served; else loaded, and kept when nothing moved meanwhile.
   */
  get(db: Kysely<Database>, key: string, load: () => Promise<JsonText>): JsonText | Promise<JsonText> {
    const probe = probes.get(db);
    if (!probe) return load();
    const map = this.of(db);
    const hit = map.get(key);
    const version = versions[this.topic];
    const foreign = probe.foreignCommits();
    if (hit && hit.version === version && hit.foreign === foreign) return hit.answer;
    return this.fill(probe, map, key, load, version, foreign);
  }

  private async fill(
    probe: StoreProbe,
    map: LRUCache<string, Entry>,
    key: string,
    load: () => Promise<JsonText>,
    version: number,
    foreign: number,
  ): Promise<JsonText> {
    const clean = !probe.inTransaction();
    const answer = await load();
    if (clean && versions[this.topic] === version && !probe.inTransaction() && probe.foreignCommits() === foreign)
      map.set(key, { version, foreign, answer });
    return answer;
  }

  private of(db: Kysely<Database>) {
    let map = this.stores.get(db);
    // An answer larger than the whole budget is not kept (lru-cache's maxEntrySize defaults to maxSize).
    if (!map)
      this.stores.set(
        db,
        (map = new LRUCache<string, Entry>({
          maxSize: this.budget,
          sizeCalculation: (e) => Math.max(1, e.answer.text.length),
        })),
      );
    return map;
  }
}
