import { sql, type Kysely, type Migration } from 'kysely';
import { wideInteger } from '../dialect/schema.js';

type Counter =
  | 'calls'
  | 'input_tokens'
  | 'output_tokens'
  | 'cache_read_tokens'
  | 'cache_write_tokens'
  | 'web_searches'
  | 'cost_nano_usd';

/** The tables this migration reads and fills, as they were then (never the app's current types). */
interface Tables {
  usage_records: { api_key_id: string | null; user_id: string; model: string; created_at: string } & Record<
    Exclude<Counter, 'calls'>,
    number
  >;
  usage_rollups: { api_key_id: string; user_id: string; model: string; day: string } & Record<Counter, number> & {
      first_call_at: string;
      last_call_at: string;
    };
}

/** Migration 0008_usage_rollups, frozen in time. */
export const usageRollupsMigration: Migration = {
  async up(db: Kysely<Tables>) {
    // The usage report sums these rows instead of every record: one row per key, user, model and
    // UTC day, and one per key, user and model for all time (day ''), which the report reads. A
    // task's own usage is read from its few records through usage_task.
    let table = db.schema
      .createTable('usage_rollups')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull());
    for (const counter of [
      'calls',
      'input_tokens',
      'output_tokens',
      'cache_read_tokens',
      'cache_write_tokens',
      'web_searches',
      'cost_nano_usd',
    ]) {
      table = table.addColumn(counter, wideInteger(db), (c) => c.notNull());
    }
    await table
      .addColumn('first_call_at', 'text', (c) => c.notNull())
      .addColumn('last_call_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_rollups_pk', ['day', 'user_id', 'api_key_id', 'model'])
      .execute();
    // Literals, not parameters, in the grouped expressions: PostgreSQL matches GROUP BY
    // expressions to the selected ones by their text.
    for (const daily of [true, false]) {
      const day = daily ? sql`substr(created_at, 1, 10)` : sql`''`;
      await db
        .insertInto('usage_rollups')
        .columns([
          'api_key_id',
          'user_id',
          'model',
          'day',
          'calls',
          'input_tokens',
          'output_tokens',
          'cache_read_tokens',
          'cache_write_tokens',
          'web_searches',
          'cost_nano_usd',
          'first_call_at',
          'last_call_at',
        ])
        .expression((eb) =>
          eb
            .selectFrom('usage_records')
            .select((rec) => [
              sql`coalesce(api_key_id, '')`.as('k'),
              'user_id',
              'model',
              day.as('d'),
              rec.fn.countAll().as('calls'),
              rec.fn.sum('input_tokens').as('input_tokens'),
              rec.fn.sum('output_tokens').as('output_tokens'),
              rec.fn.sum('cache_read_tokens').as('cache_read_tokens'),
              rec.fn.sum('cache_write_tokens').as('cache_write_tokens'),
              rec.fn.sum('web_searches').as('web_searches'),
              rec.fn.sum('cost_nano_usd').as('cost_nano_usd'),
              rec.fn.min('created_at').as('first_call_at'),
              rec.fn.max('created_at').as('last_call_at'),
            ])
            .groupBy([sql`coalesce(api_key_id, '')`, 'user_id', 'model', ...(daily ? [day] : [])]),
        )
        .execute();
    }
  },
};
