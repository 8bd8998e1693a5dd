import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CreditLedgerTable, Database } from './database.js';

type Db = Kysely<Database> | Transaction<Database>;
export type LedgerRow = Selectable<CreditLedgerTable>;

export async function insertLedgerEntry(db: Db, row: LedgerRow): Promise<void> {
  await db.insertInto('credit_ledger').values(row).execute();
}

/** The charge a task was created with, once the task exists. */
export async function attachLedgerTask(db: Db, entryId: string, taskId: string): Promise<void> {
  await db.updateTable('credit_ledger').set({ task_id: taskId }).where('id', '=', entryId).execute();
}

/** What a task has cost so far: its charges (negative) and refunds (positive) summed. */
export async function taskNet(db: Db, taskId: string): Promise<{ net: number; entries: number }> {
  const row = await db
    .selectFrom('credit_ledger')
    .select((eb) => [eb.fn.sum<number>('delta').as('net'), eb.fn.countAll<number>().as('n')])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  return { net: Number(row?.net ?? 0), entries: Number(row?.n ?? 0) };
}

/** A user's entries, newest first. */
export async function listLedger(
  db: Db,
  userId: string,
  page: number,
  size: number,
): Promise<{ total: number; items: LedgerRow[] }> {
  const total = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const items = await db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { total: Number(total?.n ?? 0), items };
}
