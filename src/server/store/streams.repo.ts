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

/** Events of many streams and the status of those that ended, in one transaction. */
export async function insertEventBatch(
  db: Kysely<Database>,
  rows: StreamEventRow[],
  ended: Array<{ key: string; status: StreamRow['status'] }>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200)
      await trx
        .insertInto('stream_events')
        .values(rows.slice(i, i + 200))
        // A batch tried again after an outage may have been committed already (its answer was lost).
        .onConflict((oc) => oc.columns(['stream_key', 'seq']).doNothing())
        .execute();
    for (const e of ended)
      await trx.updateTable('streams').set({ status: e.status }).where('key', '=', e.key).execute();
  });
}

export async function eventsFrom(
  db: Kysely<Database>,
  key: string,
  fromSeq: number,
  limit = 1000,
): Promise<StreamEventRow[]> {
  return db
    .selectFrom('stream_events')
    .selectAll()
    .where('stream_key', '=', key)
    .where('seq', '>=', fromSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** A stream's last word (done or error), if it has one; a stream has at most one. */
export async function terminalEvent(db: Kysely<Database>, key: string): Promise<StreamEventRow | undefined> {
  return db
    .selectFrom('stream_events')
    .selectAll()
    .where('stream_key', '=', key)
    .where('type', 'in', ['done', 'error'])
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/** Streams still open; with `liveWriters`, only those whose writer is not among them (orphans). */
export async function openStreams(db: Kysely<Database>, liveWriters?: string[]): Promise<StreamRow[]> {
  let q = db.selectFrom('streams').selectAll().where('status', '=', 'open');
  if (liveWriters && liveWriters.length > 0)
    q = q.where((eb) => eb.or([eb('writer', 'is', null), eb('writer', 'not in', liveWriters)]));
  return q.execute();
}

export async function lastSeq(db: Kysely<Database>, key: string): Promise<number> {
  const row = await db
    .selectFrom('stream_events')
    .select((eb) => eb.fn.max<number>('seq').as('m'))
    .where('stream_key', '=', key)
    .executeTakeFirst();
  return row?.m ?? -1;
}

/** Expired streams and their events go; their keys then answer 404 instead of 410. */
export async function deleteExpiredBefore(db: Kysely<Database>, isoTime: string): Promise<number> {
  const r = await db
    .deleteFrom('streams')
    .where('expires_at', '<', isoTime)
    .where('status', '!=', 'open')
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
