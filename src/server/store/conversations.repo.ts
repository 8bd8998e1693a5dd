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
  return db.selectFrom('conversation_turns').selectAll().where('thread_id', '=', threadId).orderBy('created_at').orderBy('id').execute();
}
