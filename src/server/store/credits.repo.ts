import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.js';
import { lockForTransaction } from './dialect/locks.js';
import { forgetCachedUser } from './users.repo.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function creditsOf(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
  return Number(row?.credits ?? 0);
}

/**
 * Takes up to `wanted` credits from the balance inside the caller's transaction, holding the user's
 * credit lock so concurrent requests take from the balance one after the other: two requests never
 * hold the same credit. Returns what was taken and the balance before.
 */
export async function takeCredits(
  trx: Transaction<Database>,
  userId: string,
  wanted: number,
): Promise<{ taken: number; before: number }> {
  await lockForTransaction(trx, `credits:user:${userId}`);
  const before = await creditsOf(trx, userId);
  const taken = Math.max(0, Math.min(wanted, before));
  if (taken > 0)
    await trx
      .updateTable('users')
      .set({ credits: sql`credits - ${taken}` })
      .where('id', '=', userId)
      .execute();
  return { taken, before };
}

/**
 * Gives back (delta > 0) or takes more (delta < 0) in one statement, never below zero; returns the
 * balance after.
 */
export async function adjustCredits(db: Kysely<Database>, userId: string, delta: number): Promise<number> {
  const after = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `credits:user:${userId}`);
    if (delta !== 0) {
      await trx
        .updateTable('users')
        .set({ credits: sql`CASE WHEN credits + ${delta} < 0 THEN 0 ELSE credits + ${delta} END` })
        .where('id', '=', userId)
        .execute();
    }
    return creditsOf(trx, userId);
  });
  forgetCachedUser(db, userId);
  return after;
}

/** Sets the balance to exactly `value` (admin `=N`); returns it. */
export async function setCredits(db: Kysely<Database>, userId: string, value: number): Promise<number> {
  await db.updateTable('users').set({ credits: value }).where('id', '=', userId).execute();
  forgetCachedUser(db, userId);
  return value;
}

/** Gives `n` credits back inside the caller's transaction, under the same per-user credit lock; returns the balance after. */
export async function giveCredits(trx: Transaction<Database>, userId: string, n: number): Promise<number> {
  await lockForTransaction(trx, `credits:user:${userId}`);
  if (n > 0)
    await trx
      .updateTable('users')
      .set({ credits: sql`credits + ${n}` })
      .where('id', '=', userId)
      .execute();
  return creditsOf(trx, userId);
}
