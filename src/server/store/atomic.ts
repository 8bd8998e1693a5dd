import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Runs compiled Kysely queries (`query.compile()`) in one transaction: all are committed before this
 * resolves, or none. Given a transaction already, they join it and commit or roll back with it; one
 * query alone is atomic by itself and needs no BEGIN and COMMIT around it.
 */
export async function runAtomically(db: Kysely<Database>, queries: ReadonlyArray<CompiledQuery>): Promise<void> {
  if (db.isTransaction || queries.length === 1) {
    for (const q of queries) await db.executeQuery(q);
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (const q of queries) await trx.executeQuery(q);
  });
}
