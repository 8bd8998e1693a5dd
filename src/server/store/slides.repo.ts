import type { Kysely, Selectable } from 'kysely';
import type { Database, PptThemesTable, SlideDecksTable } from './database.js';

export type ThemeRow = Selectable<PptThemesTable>;
export type DeckRow = Selectable<SlideDecksTable>;

export async function insertTheme(db: Kysely<Database>, row: ThemeRow): Promise<void> {
  await db.insertInto('ppt_themes').values(row).execute();
}

export async function findTheme(db: Kysely<Database>, id: string): Promise<ThemeRow | undefined> {
  return db.selectFrom('ppt_themes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a user's own theme; false when they have none with that id. */
export async function deleteUserTheme(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('ppt_themes')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A user's custom themes, oldest first (so pages stay stable as new ones are added). */
export async function userThemes(db: Kysely<Database>, userId: string): Promise<ThemeRow[]> {
  return db
    .selectFrom('ppt_themes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertDeck(db: Kysely<Database>, row: DeckRow): Promise<void> {
  await db.insertInto('slide_decks').values(row).execute();
}

export async function findDeck(db: Kysely<Database>, bizId: string): Promise<DeckRow | undefined> {
  return db.selectFrom('slide_decks').selectAll().where('biz_id', '=', bizId).executeTakeFirst();
}

/** Records a deck's previews once drawn (or that none could be). */
export async function setDeckPreviews(
  db: Kysely<Database>,
  bizId: string,
  previews: number,
  state: DeckRow['previews_state'],
): Promise<void> {
  await db.updateTable('slide_decks').set({ previews, previews_state: state }).where('biz_id', '=', bizId).execute();
}

export async function deleteDeck(db: Kysely<Database>, bizId: string): Promise<void> {
  await db.deleteFrom('slide_decks').where('biz_id', '=', bizId).execute();
}
