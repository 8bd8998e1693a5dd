import type { Insertable, Kysely } from 'kysely';
import type { Database, UsageRecordsTable } from './database.js';
import { greatest, least } from './dialect/extremes.js';

const COUNTERS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'web_searches', 'cost_nano_usd'] as const;

/**
 * Records one call, and adds it to two rollups in the same transaction: its key's, user's and
 * model's row for its UTC day, and the same for all time (day ''), which the usage report reads.
 */
export async function insertUsage(db: Kysely<Database>, row: Insertable<UsageRecordsTable>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('usage_records').values(row).execute();
    const rollup = (day: string) =>
      ({
        api_key_id: row.api_key_id ?? '',
        user_id: row.user_id,
        model: row.model,
        day,
        calls: 1,
        ...Object.fromEntries(COUNTERS.map((c) => [c, row[c]])),
        first_call_at: row.created_at,
        last_call_at: row.created_at,
      }) as Insertable<Database['usage_rollups']>;
    await trx
      .insertInto('usage_rollups')
      .values([rollup(row.created_at.slice(0, 10)), rollup(ALL_TIME)])
      .onConflict((oc) =>
        oc.columns(['day', 'user_id', 'api_key_id', 'model']).doUpdateSet((eb) => ({
          calls: eb('usage_rollups.calls', '+', 1),
          ...Object.fromEntries(COUNTERS.map((c) => [c, eb(`usage_rollups.${c}`, '+', eb.ref(`excluded.${c}`))])),
          first_call_at: least(trx, eb.ref('usage_rollups.first_call_at'), eb.ref('excluded.first_call_at')),
          last_call_at: greatest(trx, eb.ref('usage_rollups.last_call_at'), eb.ref('excluded.last_call_at')),
        })),
      )
      .execute();
  });
}

/** The `day` of the all-time rollup rows. */
const ALL_TIME = '';

export interface UsageFilter {
  apiKeyId?: string;
  userId?: string;
  taskId?: string;
}

export interface UsageGroupRow {
  api_key_id: string | null;
  user_id: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  web_searches: number;
  cost_nano_usd: number;
  first_call_at: string;
  last_call_at: string;
}

/**
 * Sums usage per (key, user, model); the service folds the rows into the report. The sums come from
 * the all-time rollups (one row per key, user and model, whatever the number of calls); one task's
 * usage comes from its own records, which the task index finds.
 */
export async function sumUsageByKeyAndModel(db: Kysely<Database>, filter: UsageFilter): Promise<UsageGroupRow[]> {
  const rows = filter.taskId ? await sumRecords(db, filter) : await sumRollups(db, filter);
  return rows.map((r) => ({
    ...r,
    api_key_id: r.api_key_id === '' ? null : r.api_key_id,
    calls: Number(r.calls),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cache_read_tokens: Number(r.cache_read_tokens),
    cache_write_tokens: Number(r.cache_write_tokens),
    web_searches: Number(r.web_searches),
    cost_nano_usd: Number(r.cost_nano_usd),
  }));
}

function sumRollups(db: Kysely<Database>, filter: UsageFilter) {
  let q = db
    .selectFrom('usage_rollups')
    .select((eb) => [
      'api_key_id',
      'user_id',
      'model',
      eb.fn.sum<number>('calls').as('calls'),
      eb.fn.sum<number>('input_tokens').as('input_tokens'),
      eb.fn.sum<number>('output_tokens').as('output_tokens'),
      eb.fn.sum<number>('cache_read_tokens').as('cache_read_tokens'),
      eb.fn.sum<number>('cache_write_tokens').as('cache_write_tokens'),
      eb.fn.sum<number>('web_searches').as('web_searches'),
      eb.fn.sum<number>('cost_nano_usd').as('cost_nano_usd'),
      eb.fn.min<string>('first_call_at').as('first_call_at'),
      eb.fn.max<string>('last_call_at').as('last_call_at'),
    ])
    .where('day', '=', ALL_TIME)
    .groupBy(['api_key_id', 'user_id', 'model']);
  if (filter.apiKeyId) q = q.where('api_key_id', '=', filter.apiKeyId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  return q.execute();
}

function sumRecords(db: Kysely<Database>, filter: UsageFilter) {
  let q = db
    .selectFrom('usage_records')
    .select((eb) => [
      'api_key_id',
      'user_id',
      'model',
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('input_tokens').as('input_tokens'),
      eb.fn.sum<number>('output_tokens').as('output_tokens'),
      eb.fn.sum<number>('cache_read_tokens').as('cache_read_tokens'),
      eb.fn.sum<number>('cache_write_tokens').as('cache_write_tokens'),
      eb.fn.sum<number>('web_searches').as('web_searches'),
      eb.fn.sum<number>('cost_nano_usd').as('cost_nano_usd'),
      eb.fn.min<string>('created_at').as('first_call_at'),
      eb.fn.max<string>('created_at').as('last_call_at'),
    ])
    .groupBy(['api_key_id', 'user_id', 'model']);
  if (filter.apiKeyId) q = q.where('api_key_id', '=', filter.apiKeyId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  if (filter.taskId) q = q.where('task_id', '=', filter.taskId);
  return q.execute();
}
