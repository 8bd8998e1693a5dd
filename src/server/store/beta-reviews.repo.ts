import type { Insertable, Kysely, Selectable } from 'kysely';
import type { BetaCallbackDeliveriesTable, BetaReviewTasksTable, Database } from './database.js';

export type ReviewTaskRow = Selectable<BetaReviewTasksTable>;
export type DeliveryRow = Selectable<BetaCallbackDeliveriesTable>;

export async function insertReviewTask(db: Kysely<Database>, row: Insertable<BetaReviewTasksTable>): Promise<void> {
  await db.insertInto('beta_review_tasks').values(row).execute();
}

export async function findReviewTask(db: Kysely<Database>, id: string): Promise<ReviewTaskRow | undefined> {
  return db.selectFrom('beta_review_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function completeReviewTask(db: Kysely<Database>, id: string, result: unknown, at: string): Promise<void> {
  await db
    .updateTable('beta_review_tasks')
    .set({ status: 'completed', result: JSON.stringify(result), completed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
}

export async function failReviewTask(db: Kysely<Database>, id: string, error: string, at: string): Promise<void> {
  await db
    .updateTable('beta_review_tasks')
    .set({ status: 'failed', error, completed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
}

/** Completed tasks of a user on a platform that were not collected yet, oldest first. */
export async function readyReviewTasks(
  db: Kysely<Database>,
  userId: string,
  platform: string,
  limit: number,
): Promise<ReviewTaskRow[]> {
  return db
    .selectFrom('beta_review_tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('platform', '=', platform)
    .where('status', '=', 'completed')
    .where('collected_at', 'is', null)
    .orderBy('completed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markCollected(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db
    .updateTable('beta_review_tasks')
    .set({ collected_at: at })
    .where('id', '=', id)
    .where('collected_at', 'is', null)
    .execute();
}

export async function insertDelivery(
  db: Kysely<Database>,
  row: Insertable<BetaCallbackDeliveriesTable>,
): Promise<void> {
  await db.insertInto('beta_callback_deliveries').values(row).execute();
}

export async function deliveriesOf(db: Kysely<Database>, taskId: string): Promise<DeliveryRow[]> {
  return db.selectFrom('beta_callback_deliveries').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
}
