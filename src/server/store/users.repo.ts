import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UsersTable } from './database.js';
import { ReadCache } from './read-cache.js';

export type UserRow = Selectable<UsersTable>;

export async function insertUser(db: Kysely<Database> | Transaction<Database>, user: UserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

// Every authenticated request reads its user: kept a few seconds (see ReadCache).
const users = new ReadCache<UserRow | undefined>(5_000);

/** The user when this process has the row cached (see findUserById); else undefined. */
export function peekUserById(db: Kysely<Database>, id: string): UserRow | undefined {
  return users.peek(db, id);
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  const row = await users.get(db, id, () => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst());
  // Only rows are kept: a user created by another process right after a miss is found at once.
  if (!row) users.delete(db, id);
  return row;
}

export async function findUserByName(db: Kysely<Database>, name: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function listUsers(db: Kysely<Database>): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateUserCredits(db: Kysely<Database>, id: string, credits: number): Promise<void> {
  await db.updateTable('users').set({ credits }).where('id', '=', id).execute();
  // After the write: a read racing it cannot put the old row back.
  users.delete(db, id);
}

/** After a write elsewhere (credits spent, plan changed): the next read sees the row as stored. */
export function forgetCachedUser(db: Kysely<Database>, id: string): void {
  users.delete(db, id);
}
