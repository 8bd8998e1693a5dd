import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ApiKeysTable, Database } from './database.js';
import { lockForTransaction } from './dialect/locks.js';
import { ReadCache } from './read-cache.js';
import { announceChange } from './cache-bus.js';
import { changed } from './view-cache.js';
import { insertAudit, type AuditRow } from './audit.repo.js';

// A user's key list is read on every listing; any key write drops the cached lists.
const keyLists = new ReadCache<ApiKeyRow[]>(5_000);
// Every request made with a key looks it up by hash: served from memory. Every write to a key
// (create, freeze, unfreeze, delete, expiry change, last use) drops the cache at once, so a frozen
// or deleted key is refused on the very next request; expiry is checked against the row at each use.
const keysByHash = new ReadCache<ApiKeyRow | undefined>(5_000);

/**
 * Drops what this process has cached about keys, after a committed write to api_keys; and unless the
 * write is one nobody else needs at once (a key's last use), every other process on the database
 * drops its caches before this resolves, so a freeze or delete holds everywhere when its call returns.
 */
async function forgetKeys(
  db: Kysely<Database>,
  options: { everywhere: boolean } = { everywhere: true },
): Promise<void> {
  keyLists.clear(db);
  keysByHash.clear(db);
  changed('keys');
  if (options.everywhere) await announceChange(db);
}

export type ApiKeyRow = Selectable<ApiKeysTable>;

/**
 * Inserts the key unless its user already holds `max` usable keys (live and not expired; frozen
 * ones count, they can be unfrozen). The count and the insert share one transaction, so two
 * concurrent creates cannot both take the last place (on PostgreSQL the transaction also holds a
 * per-user lock: read committed alone would let both counts pass). Returns false when the limit was reached.
 */
export async function insertApiKeyWithinLimit(
  db: Kysely<Database>,
  row: ApiKeyRow,
  max: number,
  nowIso: string,
  audit?: AuditRow,
): Promise<boolean> {
  const inserted = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `api-keys:user:${row.user_id}`);
    const { n } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', row.user_id)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return false;
    await trx.insertInto('api_keys').values(row).execute();
    if (audit) await insertAudit(trx, audit);
    return true;
  });
  if (inserted) await forgetKeys(db);
  return inserted;
}

export async function findLiveKeyByHash(db: Kysely<Database>, hash: string): Promise<ApiKeyRow | undefined> {
  return keysByHash.get(db, hash, () =>
    db.selectFrom('api_keys').selectAll().where('hash', '=', hash).where('deleted_at', 'is', null).executeTakeFirst(),
  );
}

/** The live key with this hash when it is in this process's cache (see findLiveKeyByHash); else undefined. */
export function peekLiveKeyByHash(db: Kysely<Database>, hash: string): ApiKeyRow | undefined {
  return keysByHash.peek(db, hash);
}

export async function findLiveKeyById(db: Kysely<Database>, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function listLiveKeys(db: Kysely<Database>, filter: { userId: string }): Promise<ApiKeyRow[]> {
  return keyLists.get(db, filter.userId, () =>
    db
      .selectFrom('api_keys')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where('user_id', '=', filter.userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
}

/** Where a page of keys ended: the next page starts after this key in (created_at, id) order. */
export interface KeyPosition {
  created_at: string;
  id: string;
}

/**
 * One page of live keys, oldest first. Keyset pagination: a page costs its own size however many
 * keys come before it, and a key created meanwhile never shifts what the next page returns.
 */
export async function listLiveKeysPage(
  db: Kysely<Database>,
  filter: { userId?: string; after?: KeyPosition; limit: number },
): Promise<{ rows: ApiKeyRow[]; more: boolean }> {
  let q = db.selectFrom('api_keys').selectAll().where('deleted_at', 'is', null);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  const after = filter.after;
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
      ]),
    );
  const rows = await q
    .orderBy('created_at')
    .orderBy('id')
    .limit(filter.limit + 1)
    .execute();
  return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
}

/** With an audit entry, the change and its entry commit together (never one without the other). */
export async function updateApiKey(
  db: Kysely<Database>,
  id: string,
  patch: Updateable<ApiKeysTable>,
  audit?: AuditRow,
): Promise<void> {
  if (audit) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('api_keys').set(patch).where('id', '=', id).execute();
      await insertAudit(trx, audit);
    });
  } else {
    await db.updateTable('api_keys').set(patch).where('id', '=', id).execute();
  }
  await forgetKeys(db, { everywhere: Object.keys(patch).some((k) => k !== 'last_used_at') });
}

/** Names and prefixes of keys, deleted ones included, for reports that outlive their keys. */
export async function findKeysByIds(db: Kysely<Database>, ids: string[]): Promise<ApiKeyRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('api_keys').selectAll().where('id', 'in', ids).execute();
}
