import type { Kysely, Selectable } from 'kysely';
import type { Database, TasksTable } from './database.js';
import { preparedQuery, preparedStatement, type BoundStatement } from './prepared.js';

export type TaskRow = Selectable<TasksTable>;

const TASK_COLUMNS = ['id', 'user_id', 'api_key_id', 'project_id', 'site_id', 'kind', 'params', 'job_id', 'created_at'] as const satisfies ReadonlyArray<keyof TasksTable>;

const insertTaskRow = preparedStatement((db, ...values: unknown[]) =>
  db.insertInto('tasks').values(Object.fromEntries(TASK_COLUMNS.map((c, i) => [c, values[i]])) as any),
);

/** The task's insert, to be committed together with its job (JobQueue.enqueue's `alongside`). */
export function insertTaskStatement(db: Kysely<Database>, row: TaskRow): BoundStatement {
  return insertTaskRow(db, ...TASK_COLUMNS.map((c) => row[c]));
}

/** Only the owner's task: another user's id reads as missing. */
export async function findOwnedTask(db: Kysely<Database>, id: string, userId: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

// Read by every run of an image task.
const taskById = preparedQuery((db: Kysely<Database>, id: string) => db.selectFrom('tasks').selectAll().where('id', '=', id));

/** The task, read at once on SQLite (its job starts without waiting a turn), or a promise of it. */
export function findTask(db: Kysely<Database>, id: string): TaskRow | undefined | Promise<TaskRow | undefined> {
  const rows = taskById(db, id);
  return Array.isArray(rows) ? rows[0] : rows.then((r) => r[0]);
}

/** Tasks with their job's state, newest first. */
export async function listTasksWithState(
  db: Kysely<Database>,
  filter: { userId: string; projectId?: string; state?: string; limit: number },
): Promise<TaskRow[]> {
  let q = db.selectFrom('tasks').innerJoin('jobs', 'jobs.id', 'tasks.job_id').selectAll('tasks').where('tasks.user_id', '=', filter.userId);
  if (filter.projectId) q = q.where('tasks.project_id', '=', filter.projectId);
  if (filter.state) q = q.where('jobs.state', '=', filter.state as never);
  return q.orderBy('tasks.created_at', 'desc').orderBy('tasks.id', 'desc').limit(filter.limit).execute();
}

export async function tasksOfProject(db: Kysely<Database>, projectId: string): Promise<TaskRow[]> {
  return db.selectFrom('tasks').selectAll().where('project_id', '=', projectId).execute();
}

export async function deleteTasks(db: Kysely<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('tasks').where('id', 'in', ids).execute();
}
