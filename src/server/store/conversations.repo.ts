import type { Kysely, Selectable } from 'kysely';
import type { ConversationThreadsTable, ConversationTurnsTable, Database } from './database.js';

export type ThreadRow = Selectable<ConversationThreadsTable>;
export type TurnRow = Selectable<ConversationTurnsTable>;

export async function insertThread(db: Kysely<Database>, row: ThreadRow): Promise<void> {
  await db.insertInto('conversation_threads').values(row).execute();
}

export async function findThread(db: Kysely<Database>, id: string): Promise<ThreadRow | undefined> {
  return db.selectFrom('conversation_threads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user's threads, most recently updated first, with how many turns each has. */
export async function pageThreads(
  db: Kysely<Database>,
  userId: string,
  options: { livedocId?: string; offset: number; limit: number },
) {
  let q = db.selectFrom('conversation_threads').where('user_id', '=', userId);
  if (options.livedocId) q = q.where('livedoc_id', '=', options.livedocId);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom('conversation_turns')
        .whereRef('conversation_turns.thread_id', '=', 'conversation_threads.id')
        .select((e) => e.fn.countAll<number>().as('c'))
        .as('turn_count'),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .offset(options.offset)
    .limit(options.limit)
    .execute();
  return { total, rows: rows.map((r) => ({ ...r, turn_count: Number(r.turn_count ?? 0) })) };
}

export async function touchThread(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('conversation_threads').set({ updated_at: at }).where('id', '=', id).execute();
}

export async function insertTurn(db: Kysely<Database>, row: TurnRow): Promise<void> {
  await db.insertInto('conversation_turns').values(row).execute();
}

export async function setTurnAnswer(db: Kysely<Database>, id: string, answer: string): Promise<void> {
  await db.updateTable('conversation_turns').set({ answer }).where('id', '=', id).execute();
}

export async function turnsOf(db: Kysely<Database>, threadId: string): Promise<TurnRow[]> {
  return db
    .selectFrom('conversation_turns')
    .selectAll()
    .where('thread_id', '=', threadId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
