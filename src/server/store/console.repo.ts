import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * The console's read-only lists (server/console/): what a signed-in person has made, newest first,
 * bounded. Nothing here writes; changes go through the services the API uses.
 */

export interface DailyUsageRow {
  day: string;
  /** The key's id ('' for calls made without a key) or the model's id, by the query. */
  series: string;
  calls: number;
  tokens: number;
  cost_nano_usd: number;
}

/** Usage per UTC day since `sinceDay` (YYYY-MM-DD), per key or per model; one user's, or everyone's. */
export async function dailyUsage(
  db: Kysely<Database>,
  by: 'api_key_id' | 'model',
  filter: { userId?: string; sinceDay: string },
): Promise<DailyUsageRow[]> {
  let q = db
    .selectFrom('usage_rollups')
    .select((eb) => [
      'day',
      eb.ref(by).as('series'),
      eb.fn.sum<number>('calls').as('calls'),
      eb.fn
        .sum<number>(
          eb('input_tokens', '+', eb('output_tokens', '+', eb('cache_read_tokens', '+', eb.ref('cache_write_tokens')))),
        )
        .as('tokens'),
      eb.fn.sum<number>('cost_nano_usd').as('cost_nano_usd'),
    ])
    // The all-time rows have day ''; every dated row sorts after it.
    .where('day', '>=', filter.sinceDay)
    .groupBy(['day', by])
    .orderBy('day');
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  const rows = await q.execute();
  return rows.map((r) => ({
    day: r.day,
    series: String(r.series),
    calls: Number(r.calls),
    tokens: Number(r.tokens),
    cost_nano_usd: Number(r.cost_nano_usd),
  }));
}

export async function recentDocTasks(
  db: Kysely<Database>,
  userId: string,
  kind: 'ppt' | 'landing_page',
  limit: number,
) {
  return db
    .selectFrom('doc_tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function recentDecks(db: Kysely<Database>, userId: string, limit: number) {
  return db
    .selectFrom('slide_decks')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** LiveDocs the user owns, newest change first. */
export async function ownedLiveDocs(db: Kysely<Database>, userId: string, limit: number) {
  return db
    .selectFrom('livedocs')
    .selectAll()
    .where('owner_id', '=', userId)
    .orderBy('modified_at', 'desc')
    .limit(limit)
    .execute();
}

export async function resourcesOf(db: Kysely<Database>, livedocId: string, limit: number) {
  return db
    .selectFrom('livedoc_resources')
    .select(['id', 'title', 'resource_type', 'status', 'source', 'content_type', 'created_at'])
    .where('livedoc_id', '=', livedocId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Generated mindmaps in the user's own LiveDocs. */
export async function mindmapsOf(db: Kysely<Database>, userId: string, limit: number) {
  return db
    .selectFrom('livedoc_resources')
    .innerJoin('livedocs', 'livedocs.id', 'livedoc_resources.livedoc_id')
    .select([
      'livedoc_resources.id',
      'livedoc_resources.title',
      'livedoc_resources.created_at',
      'livedocs.name as livedoc_name',
    ])
    .where('livedocs.owner_id', '=', userId)
    .where('livedoc_resources.source', '=', 'mindmap')
    .orderBy('livedoc_resources.created_at', 'desc')
    .limit(limit)
    .execute();
}
