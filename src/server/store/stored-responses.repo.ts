import { sql, type Kysely, type Selectable } from 'kysely';
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

/**
 * What an owner holds now, for the per-key bounds: its live rows, and the bytes of those rows plus of
 * the deleted or expired ones still kept as the history of a later turn (so deleting an ancestor does
 * not free room it still takes).
 */
export async function ownerTotals(
  db: Kysely<Database>,
  owner: string,
  now: string,
): Promise<{ rows: number; bytes: number }> {
  const r = await db
    .selectFrom('model_api_stored as s')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('s.expires_at', '>', now).then(1).else(0).end()).as('rows'),
      eb.fn.sum<number>('s.bytes').as('bytes'),
    ])
    .where('s.owner', '=', owner)
    .where((eb) =>
      eb.or([
        eb('s.expires_at', '>', now),
        eb.exists(eb.selectFrom('model_api_stored as c').select('c.id').whereRef('c.previous_id', '=', 's.id')),
      ]),
    )
    .executeTakeFirst();
  return { rows: Number(r?.rows ?? 0), bytes: Number(r?.bytes ?? 0) };
}

export type ChainRow = Pick<StoredRow, 'id' | 'previous_id' | 'body' | 'bytes' | 'items'>;

/**
 * A stored response and the ones it continued, oldest first, in one recursive query: at most `depth`
 * rows. Ancestors are read whether or not they are deleted or expired (they are that turn's history);
 * the caller has already found the newest one live and its own.
 */
export async function findChain(db: Kysely<Database>, owner: string, id: string, depth: number): Promise<ChainRow[]> {
  const r = await sql<ChainRow & { n: number }>`
    WITH RECURSIVE chain(id, previous_id, body, bytes, items, n) AS (
      SELECT id, previous_id, body, bytes, items, 1 FROM model_api_stored
        WHERE id = ${id} AND owner = ${owner} AND kind = 'response'
      UNION ALL
      SELECT s.id, s.previous_id, s.body, s.bytes, s.items, chain.n + 1 FROM model_api_stored s
        JOIN chain ON s.id = chain.previous_id
        WHERE s.owner = ${owner} AND s.kind = 'response' AND chain.n < ${depth}
    )
    SELECT id, previous_id, body, bytes, items, n FROM chain`.execute(db);
  return [...r.rows]
    .sort((a, b) => Number(b.n) - Number(a.n))
    .map(({ n: _n, ...row }) => ({ ...row, bytes: Number(row.bytes), items: Number(row.items) }));
}

export async function insertStored(
  db: Kysely<Database>,
  row: Omit<StoredRow, 'continued_at' | 'previous_id'> & { previous_id?: string | null },
): Promise<void> {
  await db
    .insertInto('model_api_stored')
    .values({ ...row, previous_id: row.previous_id ?? null, continued_at: null })
    .execute();
}

/**
 * Deletes a live row of this owner. A response a later stored turn continued stays as that turn's
 * history, marked expired (it reads as absent and cannot be continued); the sweep drops it with its
 * last continuation.
 */
export async function deleteStored(
  db: Kysely<Database>,
  owner: string,
  id: string,
  kind: StoredRow['kind'],
  now: string,
): Promise<boolean> {
  const continued = await db
    .selectFrom('model_api_stored')
    .select('id')
    .where('previous_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  if (continued) {
    const r = await db
      .updateTable('model_api_stored')
      .set({ expires_at: now })
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('kind', '=', kind)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
  const r = await db
    .deleteFrom('model_api_stored')
    .where('id', '=', id)
    .where('owner', '=', owner)
    .where('kind', '=', kind)
    .where('expires_at', '>', now)
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

/**
 * Drops what passed its retention (or was deleted), except the rows a live response still continues
 * from, found in one recursive walk up from the live rows; returns how many rows went.
 */
export async function deleteExpiredStored(db: Kysely<Database>, now: string): Promise<number> {
  const r = await sql`
    WITH RECURSIVE kept(id) AS (
      SELECT previous_id FROM model_api_stored WHERE expires_at > ${now} AND previous_id IS NOT NULL
      UNION
      SELECT s.previous_id FROM model_api_stored s JOIN kept ON s.id = kept.id WHERE s.previous_id IS NOT NULL
    )
    DELETE FROM model_api_stored WHERE expires_at <= ${now} AND id NOT IN (SELECT id FROM kept)`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
