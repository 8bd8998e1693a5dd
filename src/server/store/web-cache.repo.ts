import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export interface CachedExtraction {
  result: string;
  created_at: string;
}

export async function findCached(db: Kysely<Database>, key: string): Promise<CachedExtraction | undefined> {
  return db.selectFrom('web_extract_cache').select(['result', 'created_at']).where('key', '=', key).executeTakeFirst();
}

/** Stores (or replaces) one extraction result under its key. */
export async function putCached(
  db: Kysely<Database>,
  row: { key: string; url: string; result: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('web_extract_cache')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet({ url: row.url, result: row.result, created_at: row.created_at }))
    .execute();
}

/** Drops entries older than `before` (ISO time): the cache never serves them anyway. */
export async function pruneCached(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('web_extract_cache').where('created_at', '<', before).execute();
}
