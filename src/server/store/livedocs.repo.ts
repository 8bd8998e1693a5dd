import type { Kysely, Selectable, Updateable } from 'kysely';
import { containsIgnoringCase } from './dialect/text.js';
import type { Database, LiveDocsTable } from './database.js';

export type LiveDocRow = Selectable<LiveDocsTable>;

export async function insertLiveDoc(db: Kysely<Database>, row: LiveDocRow): Promise<void> {
  await db.insertInto('livedocs').values(row).execute();
}

export async function findLiveDoc(db: Kysely<Database>, id: string): Promise<LiveDocRow | undefined> {
  return db.selectFrom('livedocs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateLiveDoc(db: Kysely<Database>, id: string, patch: Updateable<LiveDocsTable>): Promise<void> {
  await db.updateTable('livedocs').set(patch).where('id', '=', id).execute();
}

export async function deleteLiveDoc(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('livedocs').where('id', '=', id).execute();
}

export async function isSharedWith(db: Kysely<Database>, livedocId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('livedoc_shares').select('user_id').where('livedoc_id', '=', livedocId).where('user_id', '=', userId).executeTakeFirst();
  return Boolean(row);
}

export async function share(db: Kysely<Database>, livedocId: string, userId: string, at: string): Promise<void> {
  await db.insertInto('livedoc_shares').values({ livedoc_id: livedocId, user_id: userId, created_at: at }).onConflict((oc) => oc.doNothing()).execute();
}

export async function unshare(db: Kysely<Database>, livedocId: string, userId: string): Promise<number> {
  const r = await db.deleteFrom('livedoc_shares').where('livedoc_id', '=', livedocId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** LiveDocs a user owns or that are shared with them, newest change first, with a keyword filter. */
export async function pageVisible(db: Kysely<Database>, userId: string, options: { keyword?: string; offset: number; limit: number }) {
  let q = db
    .selectFrom('livedocs')
    .where((eb) =>
      eb.or([eb('owner_id', '=', userId), eb('id', 'in', eb.selectFrom('livedoc_shares').select('livedoc_id').where('user_id', '=', userId))]),
    );
  if (options.keyword) {
    const keyword = options.keyword;
    q = q.where((eb) => eb.or([containsIgnoringCase(db, 'name', keyword), containsIgnoringCase(db, 'description', keyword)]));
  }
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.selectAll().orderBy('modified_at', 'desc').orderBy('id').offset(options.offset).limit(options.limit).execute();
  return { total, rows };
}

/** Ids of every LiveDoc a user may search: their own and those shared with them. */
export async function visibleIds(db: Kysely<Database>, userId: string): Promise<string[]> {
  const own = await db.selectFrom('livedocs').select('id').where('owner_id', '=', userId).execute();
  const shared = await db.selectFrom('livedoc_shares').select('livedoc_id as id').where('user_id', '=', userId).execute();
  return [...own, ...shared].map((r) => r.id);
}
