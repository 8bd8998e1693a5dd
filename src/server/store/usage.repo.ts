import type { Insertable, Kysely } from 'kysely';
import type { Database, UsageRecordsTable } from './database.js';

export async function insertUsage(db: Kysely<Database>, row: Insertable<UsageRecordsTable>): Promise<void> {
  await db.insertInto('usage_records').values(row).execute();
}

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

/** Sums usage per (key, user, model); the service folds the rows into the report. */
export async function sumUsageByKeyAndModel(db: Kysely<Database>, filter: UsageFilter): Promise<UsageGroupRow[]> {
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
  const rows = await q.execute();
  return rows.map((r) => ({
    ...r,
    calls: Number(r.calls),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cache_read_tokens: Number(r.cache_read_tokens),
    cache_write_tokens: Number(r.cache_write_tokens),
    web_searches: Number(r.web_searches),
    cost_nano_usd: Number(r.cost_nano_usd),
  }));
}
