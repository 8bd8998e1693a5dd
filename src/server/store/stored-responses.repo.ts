import type { Kysely, Selectable } from 'kysely';
import type { Database, ModelApiStoredTable } from './database.js';

export type StoredRow = Selectable<ModelApiStoredTable>;

/** A live (unexpired) row of this owner; another owner's row reads as absent. */
export async function findStored(
  db: Kysely<Database>,
  owner: string,
  id: string,
  kind: StoredRow['kind'],
  now: string,
): Promise<StoredRow | undefined> {
  return db
    .selectFrom('model_api_stored')
    .selectAll()
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('kind', '=', kind)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** What an owner holds now: rows and bytes, for the per-key bounds. */
export async function ownerTotals(
  db: Kysely<Database>,
  owner: string,
  now: string,
): Promise<{ rows: number; bytes: number }> {
  const r = await db
    .selectFrom('model_api_stored')
    .select((eb) => [eb.fn.countAll().as('rows'), eb.fn.sum<number>('bytes').as('bytes')])
    .where('owner', '=', owner)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return { rows: Number(r?.rows ?? 0), bytes: Number(r?.bytes ?? 0) };
}

export async function insertStored(db: Kysely<Database>, row: Omit<StoredRow, 'continued_at'>): Promise<void> {
  await db
    .insertInto('model_api_stored')
    .values({ ...row, continued_at: null })
    .execute();
}

export async function deleteStored(
  db: Kysely<Database>,
  owner: string,
  id: string,
  kind: StoredRow['kind'],
): Promise<boolean> {
  const r = await db
    .deleteFrom('model_api_stored')
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Claims a thread message for one continuation: a guarded UPDATE, so two racing continues (on one
 * instance or several) cannot both win. False when another turn has it.
 */
export async function claimThread(db: Kysely<Database>, owner: string, id: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('model_api_stored')
    .set({ continued_at: at })
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('kind', '=', 'thread')
    .where('continued_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Gives a claimed thread message back when the turn that claimed it failed. */
export async function releaseThread(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('model_api_stored').set({ continued_at: null }).where('id', '=', id).execute();
}

/** Drops what passed its retention; returns how many rows went. */
export async function deleteExpiredStored(db: Kysely<Database>, now: string): Promise<number> {
  const r = await db.deleteFrom('model_api_stored').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
