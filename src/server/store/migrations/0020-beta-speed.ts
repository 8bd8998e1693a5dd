import type { Kysely, Migration } from 'kysely';

/**
 * One row per imported subject (`facet serve data import`) naming its current import: a new version
 * on every import, so a CPU worker that holds an import's rows and their index keeps them until the
 * next import instead of reading and indexing them again on every request. Subjects imported before
 * this migration get a version of their own. Frozen: never import the app's current types here.
 */
/** The tables this migration reads and fills, as they were then (never the app's current types). */
interface Tables {
  beta_data_rows: { family: string; subject: string };
  beta_data_imports: { family: string; subject: string; version: string; row_count: number; imported_at: string };
}

export const betaSpeedMigration: Migration = {
  async up(db: Kysely<Tables>) {
    await db.schema
      .createTable('beta_data_imports')
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('row_count', 'integer', (c) => c.notNull())
      .addColumn('imported_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('beta_data_imports_pk', ['family', 'subject'])
      .execute();
    const existing = await db
      .selectFrom('beta_data_rows')
      .select(['family', 'subject', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['family', 'subject'])
      .execute();
    const now = new Date().toISOString();
    for (const r of existing) {
      await db
        .insertInto('beta_data_imports')
        .values({
          family: r.family,
          subject: r.subject,
          version: `m0020:${r.family}:${r.subject}`,
          row_count: Number(r.n),
          imported_at: now,
        })
        .execute();
    }
  },
};
