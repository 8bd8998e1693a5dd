import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from './database.js';

export type SessionRow = Selectable<SessionsTable>;

/**
 * Stores a new session and drops the user's sessions that have ended (idle or past their absolute
 * end) in the same transaction, so ended rows do not pile up between logins.
 */
export async function insertSession(db: Kysely<Database>, row: SessionRow, idleCutoffIso: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('sessions')
      .where('user_id', '=', row.user_id)
      .where((eb) => eb.or([eb('expires_at', '<=', row.created_at), eb('last_used_at', '<', idleCutoffIso)]))
      .execute();
    await trx.insertInto('sessions').values(row).execute();
  });
}

/** Read at every request made with the cookie, never cached: a logout holds on every instance at once. */
export async function findSessionByHash(db: Kysely<Database>, hash: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('hash', '=', hash).executeTakeFirst();
}

export async function touchSession(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Logout: the row goes, so the cookie's value is refused from now on. True when there was one. */
export async function deleteSessionByHash(db: Kysely<Database>, hash: string): Promise<boolean> {
  const res = await db.deleteFrom('sessions').where('hash', '=', hash).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** A key frozen or deleted: the sessions opened with it end with it. */
export async function deleteSessionsOfKey(db: Kysely<Database>, apiKeyId: string): Promise<number> {
  const res = await db.deleteFrom('sessions').where('api_key_id', '=', apiKeyId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
