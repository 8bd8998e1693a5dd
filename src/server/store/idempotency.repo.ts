import type { Kysely, Selectable } from 'kysely';
import type { Database, IdempotencyKeysTable } from './database.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

/**
 * Takes an Idempotency-Key for its first request: true when this call inserted the row (the key was
 * free), false when a row exists. One guarded INSERT, so two racing first uses cannot both win, on
 * one instance or several sharing the database.
 */
export async function reserveKey(
  db: Kysely<Database>,
  row: Omit<IdempotencyRow, 'state' | 'job_id'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...row, state: 'pending', job_id: null })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findKey(db: Kysely<Database>, scope: string, key: string): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function completeKey(db: Kysely<Database>, scope: string, key: string, jobId: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', job_id: jobId })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .execute();
}

/** Frees a key: its first request failed before making anything, or its row outlived its window. */
export async function dropKey(
  db: Kysely<Database>,
  scope: string,
  key: string,
  onlyIf: { createdBefore?: string; expiredBy?: string } = {},
): Promise<void> {
  let q = db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key);
  if (onlyIf.createdBefore) q = q.where('state', '=', 'pending').where('created_at', '<', onlyIf.createdBefore);
  if (onlyIf.expiredBy) q = q.where('expires_at', '<=', onlyIf.expiredBy);
  await q.execute();
}
