import { sql, type Kysely, type Migration } from 'kysely';
import { wideInteger } from '../dialect/schema.js';

/** Migration 0008_usage_rollups, frozen in time: it takes Kysely<any> and never imports the app's current types. */
export const usageRollupsMigration: Migration = {
  async up(db: Kysely<any>) {
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
        .expression((eb: any) =>
          eb
            .selectFrom('usage_records')
            .select([
              sql`coalesce(api_key_id, '')`.as('k'),
              'user_id',
              'model',
              day.as('d'),
              eb.fn.countAll().as('calls'),
              eb.fn.sum('input_tokens').as('input_tokens'),
              eb.fn.sum('output_tokens').as('output_tokens'),
              eb.fn.sum('cache_read_tokens').as('cache_read_tokens'),
              eb.fn.sum('cache_write_tokens').as('cache_write_tokens'),
              eb.fn.sum('web_searches').as('web_searches'),
              eb.fn.sum('cost_nano_usd').as('cost_nano_usd'),
              eb.fn.min('created_at').as('first_call_at'),
              eb.fn.max('created_at').as('last_call_at'),
            ])
            .groupBy([sql`coalesce(api_key_id, '')`, 'user_id', 'model', ...(daily ? [day] : [])]),
        )
        .execute();
    }
  },
};
