import type { Insertable, Kysely } from 'kysely';
import type { Database, UsageRecordsTable, UsageRollupsTable } from './database.js';
import { greatest, least } from './dialect/extremes.js';
import { runAtomically } from './atomic.js';
import { reusableStatement } from './reusable-statement.js';

const COUNTERS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'web_searches',
  'cost_nano_usd',
] as const;

const RECORD_COLUMNS = ['api_key_id', 'user_id', 'task_id', 'model', 'operation', ...COUNTERS, 'created_at'] as const;
const ROLLUP_VALUES = ['api_key_id', 'user_id', 'model', 'day', 'created_at', ...COUNTERS] as const;

/** The `day` of the all-time rollup rows. */
const ALL_TIME = '';

const insertRecord = reusableStatement<Database, (typeof RECORD_COLUMNS)[number]>(RECORD_COLUMNS, (db, v) =>
  db.insertInto('usage_records').values(v).compile(),
);

/**
 * Adds one call to its key's, user's and model's rollup rows: the one of its UTC day and the
 * all-time one (each created at its first call).
 */
const addToRollups = reusableStatement<Database, (typeof ROLLUP_VALUES)[number]>(ROLLUP_VALUES, (db, v) => {
  const rollup = (day: string): Insertable<UsageRollupsTable> => ({
    api_key_id: v.api_key_id,
    user_id: v.user_id,
    model: v.model,
    day,
    calls: 1,
    ...(Object.fromEntries(COUNTERS.map((c) => [c, v[c]])) as Record<(typeof COUNTERS)[number], never>),
    first_call_at: v.created_at,
    last_call_at: v.created_at,
  });
  return db
    .insertInto('usage_rollups')
    .values([rollup(v.day), rollup(ALL_TIME)])
    .onConflict((oc) =>
      oc.columns(['day', 'user_id', 'api_key_id', 'model']).doUpdateSet((eb) => ({
        calls: eb('usage_rollups.calls', '+', 1),
        ...Object.fromEntries(COUNTERS.map((c) => [c, eb(`usage_rollups.${c}`, '+', eb.ref(`excluded.${c}`))])),
        first_call_at: least(db, eb.ref('usage_rollups.first_call_at'), eb.ref('excluded.first_call_at')),
        last_call_at: greatest(db, eb.ref('usage_rollups.last_call_at'), eb.ref('excluded.last_call_at')),
      })),
    )
    .compile();
});

/**
 * Records one call, and adds it to two rollups in the same transaction: its key's, user's and
 * model's row for its UTC day, and the same for all time (day ''), which the usage report reads.
 * Both statements are hot (one per metered call), so each is compiled once (reusable-statement.ts).
 */
export async function insertUsage(db: Kysely<Database>, row: Insertable<UsageRecordsTable>): Promise<void> {
  const counters = Object.fromEntries(COUNTERS.map((c) => [c, row[c] ?? 0]));
  await runAtomically(db, [
    insertRecord(db, Object.fromEntries(RECORD_COLUMNS.map((c) => [c, row[c] ?? null])) as Record<string, unknown>),
    addToRollups(db, {
      ...counters,
      api_key_id: row.api_key_id ?? '',
      user_id: row.user_id,
      model: row.model,
      day: row.created_at.slice(0, 10),
      created_at: row.created_at,
    } as Record<(typeof ROLLUP_VALUES)[number], unknown>),
  ]);
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

/**
 * Sums usage per (key, user, model); the service folds the rows into the report. The sums come from
 * the all-time rollups (one row per key, user and model, whatever the number of calls); one task's
 * usage comes from its own records, which the task index finds.
 */
export async function sumUsageByKeyAndModel(db: Kysely<Database>, filter: UsageFilter): Promise<UsageGroupRow[]> {
  const rows = await (filter.taskId ? sumTaskRecords(db, filter.taskId, filter) : sumRollups(db, filter));
  return rows.map((r) => ({
    api_key_id: r.api_key_id === '' ? null : r.api_key_id,
    user_id: r.user_id,
    model: r.model,
    calls: Number(r.calls),
    ...(Object.fromEntries(COUNTERS.map((c) => [c, Number(r[c])])) as Record<(typeof COUNTERS)[number], number>),
    first_call_at: r.first_call_at,
    last_call_at: r.last_call_at,
  }));
}

/** Sums per (key, user, model) over the all-time rollup rows. */
function sumRollups(db: Kysely<Database>, filter: UsageFilter) {
  let q = db
    .selectFrom('usage_rollups')
    .select((eb) => [
      'api_key_id',
      'user_id',
      'model',
      eb.fn.sum<number>('calls').as('calls'),
      ...COUNTERS.map((c) => eb.fn.sum<number>(c).as(c)),
      eb.fn.min('first_call_at').as('first_call_at'),
      eb.fn.max('last_call_at').as('last_call_at'),
    ])
    .groupBy(['api_key_id', 'user_id', 'model'])
    .where('day', '=', ALL_TIME);
  if (filter.apiKeyId) q = q.where('api_key_id', '=', filter.apiKeyId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  return q.execute();
}

/** Sums per (key, user, model) over one task's own records. */
function sumTaskRecords(db: Kysely<Database>, taskId: string, filter: UsageFilter) {
  let q = db
    .selectFrom('usage_records')
    .select((eb) => [
      'api_key_id',
      'user_id',
      'model',
      eb.fn.countAll<number>().as('calls'),
      ...COUNTERS.map((c) => eb.fn.sum<number>(c).as(c)),
      eb.fn.min('created_at').as('first_call_at'),
      eb.fn.max('created_at').as('last_call_at'),
    ])
    .groupBy(['api_key_id', 'user_id', 'model']);
  if (filter.apiKeyId) q = q.where('api_key_id', '=', filter.apiKeyId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  return q.where('task_id', '=', taskId).execute();
}
