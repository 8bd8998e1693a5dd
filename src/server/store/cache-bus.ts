import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * What keeps the per-process read caches (store/read-cache.ts) honest when several processes share
 * one database. A write that other processes must see at once (a key frozen, a plan changed)
 * announces itself after it commits; every process listening drops its caches, and the announcer
 * waits until every live process has done so — so a freeze through instance A is refused by B on
 * the very next request after the freeze call returns. A process whose listener is down does not
 * trust its caches at all until it is back.
 *
 * SQLite has no bus: one `facet serve` owns the file, and its own writes drop its caches directly.
 * The PostgreSQL bus (LISTEN/NOTIFY) is in dialect/cache-bus.ts.
 */
export interface CacheBus {
  /** This process among the others on the database (what it writes can name it). */
  readonly instanceId: string;
  /** False while this process may have missed an announcement: caches are bypassed. */
  readonly trusted: boolean;
  /** After a committed write: every live process drops its caches before this resolves (bounded). */
  announce(): Promise<void>;
  /** A wake-up for the other processes (an id only; the database holds the facts). */
  wake(topic: WakeTopic, id: string): Promise<void>;
  /** Calls `fn` with the id of every wake-up on `topic`; returns the unsubscribe function. */
  onWake(topic: WakeTopic, fn: (id: string) => void): () => void;
  /** The ids of the processes alive now (heartbeat within the live window), this one included. */
  liveInstances(): Promise<string[]>;
  /**
   * Records which files directory or object store this server uses (its identity) and returns the
   * live instances that use another one, with theirs: files written by one would be missing on the other.
   */
  claimFilesDir(filesId: string): Promise<Array<{ id: string; filesId: string }>>;
  close(): Promise<void>;
}

/**
 * What wake-ups are about: a conversation stream with new events (its key); a job queued (by whom);
 * lines of the live request log (their JSON, the one topic whose payload is the fact itself, since
 * nothing of it is stored); a tail opened somewhere, asking instances to publish their lines.
 */
export type WakeTopic = 'stream' | 'job' | 'log' | 'log-interest';

const buses = new WeakMap<Kysely<Database>, CacheBus>();
const clearers = new Set<(db: Kysely<Database>) => void>();

export function attachCacheBus(db: Kysely<Database>, bus: CacheBus): void {
  buses.set(db, bus);
}

/** Each cache registers how to drop what it holds for one store. */
export function onCacheInvalidation(clear: (db: Kysely<Database>) => void): void {
  clearers.add(clear);
}

/** Drops every registered cache of `db` (an announcement arrived, or the listener was lost). */
export function clearAllCaches(db: Kysely<Database>): void {
  for (const clear of clearers) clear(db);
}

/** The bus of this store, when several processes may share it (PostgreSQL). */
export function busOf(db: Kysely<Database>): CacheBus | undefined {
  return buses.get(db);
}

export function cachesTrusted(db: Kysely<Database>): boolean {
  return buses.get(db)?.trusted ?? true;
}

/** Tells the other processes on this database to drop their caches; nothing to do on SQLite. */
export async function announceChange(db: Kysely<Database>): Promise<void> {
  await buses.get(db)?.announce();
}
