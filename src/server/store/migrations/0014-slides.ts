import type { Kysely, Migration } from 'kysely';

/**
 * Issue 11, slide decks: the users' custom themes and the decks tasks wrote (what the viewer page
 * and ppt-retrieve read). Frozen in time like every migration: no imports of the app's current types.
 */
export const slidesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ppt_themes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('subtitle', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      // The ThemeSpec as JSON: colours, fonts, layout variants.
      .addColumn('spec', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ppt_themes_user').on('ppt_themes').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('slide_decks')
      .addColumn('biz_id', 'text', (c) => c.primaryKey())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('livedoc_id', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      .addColumn('theme_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      // JSON array of the slides' texts, in order (the viewer's fallback without previews).
      .addColumn('slides', 'text', (c) => c.notNull())
      // Number of preview PNGs stored next to the deck (0: LibreOffice was not available).
      .addColumn('previews', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('slide_decks_task').on('slide_decks').column('task_id').execute();
  },
};
