import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ApiKeysTable, Database } from './database.js';
import { preparedQuery } from './prepared.js';
import { ReadCache } from './read-cache.js';

// A user's key list is read on every listing; any key write drops the cached lists.
const keyLists = new ReadCache<ApiKeyRow[]>(5_000);

export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertApiKey(db: Kysely<Database>, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
  keyLists.clear(db);
}

// The key lookup runs on every request made with a key: prepared once.
const liveKeyByHash = preparedQuery((db: Kysely<Database>, hash: string) =>
  db.selectFrom('api_keys').selectAll().where('hash', '=', hash).where('deleted_at', 'is', null),
);

const liveKeysOfUser = preparedQuery((db: Kysely<Database>, userId: string) =>
  db.selectFrom('api_keys').selectAll().where('deleted_at', 'is', null).where('user_id', '=', userId).orderBy('created_at').orderBy('id'),
);

export async function findLiveKeyByHash(db: Kysely<Database>, hash: string): Promise<ApiKeyRow | undefined> {
  return (await liveKeyByHash(db, hash))[0];
}

export async function findLiveKeyById(db: Kysely<Database>, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function listLiveKeys(db: Kysely<Database>, filter: { userId?: string } = {}): Promise<ApiKeyRow[]> {
  const userId = filter.userId;
  if (userId) return keyLists.get(db, userId, () => liveKeysOfUser(db, userId));
  return db.selectFrom('api_keys').selectAll().where('deleted_at', 'is', null).orderBy('created_at').orderBy('id').execute();
}

export async function updateApiKey(db: Kysely<Database>, id: string, patch: Updateable<ApiKeysTable>): Promise<void> {
  await db.updateTable('api_keys').set(patch).where('id', '=', id).execute();
  keyLists.clear(db);
}

/** Names and prefixes of keys, deleted ones included, for reports that outlive their keys. */
export async function findKeysByIds(db: Kysely<Database>, ids: string[]): Promise<ApiKeyRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('api_keys').selectAll().where('id', 'in', ids).execute();
}
