import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';
import { runAtomically } from './atomic.js';

/**
 * Per-owner row counts of the lists whose `total` a page answers, kept in the same transaction as
 * every insert and delete of their rows, so a page's total costs one key lookup instead of a count
 * over everything the owner has (O(page), not O(rows)).
 */
export type CountedList = 'livedocs';

/** The adjustment as a compiled query: run with the row it counts, atomically (runAtomically). */
export function adjustTotalStatement(
  db: Kysely<Database>,
  list: CountedList,
  ownerId: string,
  delta: number,
): CompiledQuery {
  return db
    .insertInto('list_totals')
    .values({ owner_id: ownerId, list, n: delta })
    .onConflict((oc) => oc.columns(['owner_id', 'list']).doUpdateSet((eb) => ({ n: eb('list_totals.n', '+', delta) })))
    .compile();
}

/** Adjusts a total inside the transaction `trx` that changes the rows it counts. */
export async function adjustTotal(
  trx: Kysely<Database>,
  list: CountedList,
  ownerId: string,
  delta: number,
): Promise<void> {
  await runAtomically(trx, [adjustTotalStatement(trx, list, ownerId, delta)]);
}

export async function totalOf(db: Kysely<Database>, list: CountedList, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('list_totals')
    .select('n')
    .where('owner_id', '=', ownerId)
    .where('list', '=', list)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
