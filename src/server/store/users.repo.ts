import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from './database.js';
import { preparedQuery } from './prepared.js';

export type UserRow = Selectable<UsersTable>;

export async function insertUser(db: Kysely<Database>, user: UserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

// On every authenticated request: prepared once.
const userById = preparedQuery((db: Kysely<Database>, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));

/**
 * Every authenticated request reads its user. Rows are kept a few seconds per store; this module's
 * own writes drop them at once, and the short life bounds what another process (the offline
 * `facet serve users` commands) can leave stale.
 */
const USER_TTL_MS = 5_000;
const userCache = new WeakMap<Kysely<Database>, Map<string, { row: UserRow; at: number }>>();

function cacheOf(db: Kysely<Database>) {
  let cache = userCache.get(db);
  if (!cache) userCache.set(db, (cache = new Map()));
  return cache;
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  const cache = cacheOf(db);
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < USER_TTL_MS) return hit.row;
  const row = (await userById(db, id))[0];
  if (row) {
    if (cache.size > 10_000) cache.clear();
    cache.set(id, { row, at: Date.now() });
  } else cache.delete(id);
  return row;
}

export async function findUserByName(db: Kysely<Database>, name: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function listUsers(db: Kysely<Database>): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateUserCredits(db: Kysely<Database>, id: string, credits: number): Promise<void> {
  cacheOf(db).delete(id);
  await db.updateTable('users').set({ credits }).where('id', '=', id).execute();
}
