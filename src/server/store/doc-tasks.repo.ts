import type { Kysely, Selectable } from 'kysely';
import type { Database, DocTasksTable } from './database.js';

export type DocTaskRow = Selectable<DocTasksTable>;
export type DocTaskOutcome = NonNullable<DocTaskRow['outcome']>;

export async function insertDocTask(db: Kysely<Database>, row: DocTaskRow): Promise<void> {
  await db.insertInto('doc_tasks').values(row).execute();
}

export async function deleteDocTask(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('doc_tasks').where('id', '=', id).execute();
}

export function findDocTask(db: Kysely<Database>, id: string): Promise<DocTaskRow | undefined> {
  return db.selectFrom('doc_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDocTaskByBiz(db: Kysely<Database>, bizId: string): Promise<DocTaskRow | undefined> {
  return db.selectFrom('doc_tasks').selectAll().where('biz_id', '=', bizId).executeTakeFirst();
}

/** Records how a run ended. `onlyIfOpen`: not over an outcome already written (a cancel that came first). */
export async function setOutcome(
  db: Kysely<Database>,
  id: string,
  change: {
    outcome: DocTaskOutcome | null;
    error_message: string | null;
    result?: string | null;
    finished_at: string | null;
    at: string;
  },
  onlyIfOpen = false,
): Promise<boolean> {
  let q = db
    .updateTable('doc_tasks')
    .set({
      outcome: change.outcome,
      error_message: change.error_message,
      finished_at: change.finished_at,
      updated_at: change.at,
      ...(change.result !== undefined ? { result: change.result } : {}),
    })
    .where('id', '=', id);
  if (onlyIfOpen) q = q.where('outcome', 'is', null);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Completed tasks whose outputs are past the retention window, oldest first. */
export function completedBefore(db: Kysely<Database>, cutoff: string, limit: number): Promise<DocTaskRow[]> {
  return db
    .selectFrom('doc_tasks')
    .selectAll()
    .where('outcome', '=', 'completed')
    .where('finished_at', '<', cutoff)
    .orderBy('finished_at')
    .limit(limit)
    .execute();
}

/** completed → expired, once: the sweeper that wins removes the outputs. */
export async function markExpired(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('doc_tasks')
    .set({ outcome: 'expired', updated_at: at })
    .where('id', '=', id)
    .where('outcome', '=', 'completed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
