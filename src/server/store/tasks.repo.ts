import type { CompiledQuery, Kysely, Selectable } from 'kysely';
import type { Database, TasksTable } from './database.js';

export type TaskRow = Selectable<TasksTable>;

/** The task's insert, to be committed together with its job (JobQueue.enqueue's `alongside`). */
export function insertTaskStatement(db: Kysely<Database>, row: TaskRow): CompiledQuery {
  return db.insertInto('tasks').values(row).compile();
}

/** Only the owner's task: another user's id reads as missing. */
export async function findOwnedTask(db: Kysely<Database>, id: string, userId: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function findTask(db: Kysely<Database>, id: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Tasks with their job's state, newest first. */
export async function listTasksWithState(
  db: Kysely<Database>,
  filter: { userId: string; projectId?: string; state?: string; limit: number },
): Promise<TaskRow[]> {
  let q = db
    .selectFrom('tasks')
    .innerJoin('jobs', 'jobs.id', 'tasks.job_id')
    .selectAll('tasks')
    .where('tasks.user_id', '=', filter.userId);
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
