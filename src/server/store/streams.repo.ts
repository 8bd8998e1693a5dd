import type { Kysely, Selectable } from 'kysely';
import type { Database, StreamEventsTable, StreamsTable } from './database.js';

export type StreamRow = Selectable<StreamsTable>;
export type StreamEventRow = Selectable<StreamEventsTable>;

export async function insertStream(db: Kysely<Database>, row: StreamRow): Promise<void> {
  await db.insertInto('streams').values(row).execute();
}

export async function findStream(db: Kysely<Database>, key: string): Promise<StreamRow | undefined> {
  return db.selectFrom('streams').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function setStreamStatus(db: Kysely<Database>, key: string, status: StreamRow['status']): Promise<void> {
  await db.updateTable('streams').set({ status }).where('key', '=', key).execute();
}

export async function insertEvent(db: Kysely<Database>, row: StreamEventRow): Promise<void> {
  await db.insertInto('stream_events').values(row).execute();
}

export async function eventsFrom(db: Kysely<Database>, key: string, fromSeq: number, limit = 1000): Promise<StreamEventRow[]> {
  return db.selectFrom('stream_events').selectAll().where('stream_key', '=', key).where('seq', '>=', fromSeq).orderBy('seq').limit(limit).execute();
}

export async function openStreams(db: Kysely<Database>): Promise<StreamRow[]> {
  return db.selectFrom('streams').selectAll().where('status', '=', 'open').execute();
}

export async function lastSeq(db: Kysely<Database>, key: string): Promise<number> {
  const row = await db.selectFrom('stream_events').select((eb) => eb.fn.max<number>('seq').as('m')).where('stream_key', '=', key).executeTakeFirst();
  return row?.m ?? -1;
}

/** Expired streams and their events go; their keys then answer 404 instead of 410. */
export async function deleteExpiredBefore(db: Kysely<Database>, isoTime: string): Promise<number> {
  const r = await db.deleteFrom('streams').where('expires_at', '<', isoTime).where('status', '!=', 'open').executeTakeFirst();
  return Number(r.numDeletedRows);
}
