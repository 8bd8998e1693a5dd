import type { Kysely, Migration } from 'kysely';

/**
 * Issue 11, landing pages: the credit ledger, one row per change of a user's balance that a
 * feature makes (a landing page's charge, its refund), so a user can see what they paid and why.
 * Frozen in time like every migration: no imports of the app's current types.
 */
export const landingPagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('credit_ledger')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      // Negative: credits taken; positive: given back.
      .addColumn('delta', 'integer', (c) => c.notNull())
      .addColumn('balance_after', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_ledger_user').on('credit_ledger').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('credit_ledger_task').on('credit_ledger').columns(['task_id', 'reason']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('credit_ledger').ifExists().execute();
  },
};
