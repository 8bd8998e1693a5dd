import type { Kysely, Migration } from 'kysely';

/**
 * Issue 45: a deck's previews are drawn after its task completes (a job of their own), so a deck
 * says where they stand: `drawing`, `drawn` or `unavailable` (LibreOffice missing or failed).
 * Decks made before drew theirs inside the task: `drawn`, with their count in `previews`.
 */
export const deckPreviewsStateMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('slide_decks')
      .addColumn('previews_state', 'text', (c) => c.notNull().defaultTo('drawn'))
      .execute();
  },
};
