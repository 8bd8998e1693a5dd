import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function countIn(db: Db, bucket: string, windowStart: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_windows')
    .select('count')
    .where('bucket', '=', bucket)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.count ?? 0;
}

export async function increment(db: Db, bucket: string, windowStart: number): Promise<void> {
  await db
    .insertInto('rate_limit_windows')
    .values({ bucket, window_start: windowStart, count: 1 })
    // Qualified: PostgreSQL finds a bare `count` ambiguous (the row or EXCLUDED); SQLite reads both.
    .onConflict((oc) =>
      oc.columns(['bucket', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limit_windows.count', '+', 1) })),
    )
    .execute();
}

/** Windows that ended are of no further use. */
export async function dropBefore(db: Db, bucket: string, windowStart: number): Promise<void> {
  await db
    .deleteFrom('rate_limit_windows')
    .where('bucket', '=', bucket)
    .where('window_start', '<', windowStart)
    .execute();
}
