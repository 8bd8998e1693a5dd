import type { Kysely, Selectable, Updateable } from 'kysely';
import { containsIgnoringCase } from './dialect/text.js';
import type { Database, LiveDocsTable } from './database.js';
import { adjustTotal, adjustTotalStatement, totalOf } from './list-totals.repo.js';
import { runAtomically } from './atomic.js';
import { changing } from './view-cache.js';

export type LiveDocRow = Selectable<LiveDocsTable>;

export async function insertLiveDoc(db: Kysely<Database>, row: LiveDocRow): Promise<void> {
  // The row and its owner's total in one transaction.
  await changing('livedocs', () =>
    runAtomically(db, [
      db.insertInto('livedocs').values(row).compile(),
      adjustTotalStatement(db, 'livedocs', row.owner_id, 1),
    ]),
  );
}

export async function findLiveDoc(db: Kysely<Database>, id: string): Promise<LiveDocRow | undefined> {
  return db.selectFrom('livedocs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateLiveDoc(db: Kysely<Database>, id: string, patch: Updateable<LiveDocsTable>): Promise<void> {
  await changing('livedocs', () => db.updateTable('livedocs').set(patch).where('id', '=', id).execute());
}

export async function deleteLiveDoc(db: Kysely<Database>, id: string): Promise<void> {
  await changing('livedocs', () =>
    db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('livedocs').where('id', '=', id).returning('owner_id').executeTakeFirst();
      if (gone) await adjustTotal(trx, 'livedocs', gone.owner_id, -1);
    }),
  );
}

export async function isSharedWith(db: Kysely<Database>, livedocId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('livedoc_shares')
    .select('user_id')
    .where('livedoc_id', '=', livedocId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(row);
}

export async function share(db: Kysely<Database>, livedocId: string, userId: string, at: string): Promise<void> {
  await changing('livedocs', () =>
    db
      .insertInto('livedoc_shares')
      .values({ livedoc_id: livedocId, user_id: userId, created_at: at })
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
}

export async function unshare(db: Kysely<Database>, livedocId: string, userId: string): Promise<number> {
  const r = await changing('livedocs', () =>
    db
      .deleteFrom('livedoc_shares')
      .where('livedoc_id', '=', livedocId)
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  );
  return Number(r.numDeletedRows);
}

/**
 * LiveDocs a user owns or that are shared with them, newest change first. Without a keyword a page
 * costs O(offset + size): its rows come in order from the (owner_id, modified_at, id) index, the
 * shared ones (few, through their own index) are merged in, and the total is the maintained count
 * plus the user's shares. A keyword filter has to look at every visible LiveDoc's name.
 */
export async function pageVisible(
  db: Kysely<Database>,
  userId: string,
  options: { keyword?: string; offset: number; limit: number },
) {
  if (options.keyword) return pageFiltered(db, userId, options.keyword, options);
  const [{ n: sharedCount }] = await sharedCountOf(db, userId);
  const total = (await totalOf(db, 'livedocs', userId)) + Number(sharedCount);
  if (Number(sharedCount) === 0) return { total, rows: await ownedPage(db, userId, options.limit, options.offset) };
  const upTo = options.offset + options.limit;
  const shared = await sharedPage(db, userId, upTo);
  const rows = [...(await ownedPage(db, userId, upTo, 0)), ...shared].sort(newestFirst).slice(options.offset, upTo);
  return { total, rows };
}

const sharedCountOf = (db: Kysely<Database>, userId: string) =>
  db
    .selectFrom('livedoc_shares')
    .innerJoin('livedocs', 'livedocs.id', 'livedoc_shares.livedoc_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('livedoc_shares.user_id', '=', userId)
    .where('livedocs.owner_id', '<>', userId)
    .execute();

const ownedPage = (db: Kysely<Database>, userId: string, limit: number, offset: number) =>
  db
    .selectFrom('livedocs')
    .selectAll()
    .where('owner_id', '=', userId)
    .orderBy('modified_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();

const sharedPage = (db: Kysely<Database>, userId: string, limit: number) =>
  db
    .selectFrom('livedoc_shares')
    .innerJoin('livedocs', 'livedocs.id', 'livedoc_shares.livedoc_id')
    .selectAll('livedocs')
    .where('livedoc_shares.user_id', '=', userId)
    .where('livedocs.owner_id', '<>', userId)
    .orderBy('livedocs.modified_at', 'desc')
    .orderBy('livedocs.id', 'desc')
    .limit(limit)
    .execute();

const newestFirst = (a: LiveDocRow, b: LiveDocRow) =>
  a.modified_at === b.modified_at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.modified_at < b.modified_at ? 1 : -1;

async function pageFiltered(
  db: Kysely<Database>,
  userId: string,
  keyword: string,
  options: { offset: number; limit: number },
) {
  const q = db
    .selectFrom('livedocs')
    .where((eb) =>
      eb.or([
        eb('owner_id', '=', userId),
        eb('id', 'in', eb.selectFrom('livedoc_shares').select('livedoc_id').where('user_id', '=', userId)),
      ]),
    )
    .where((eb) =>
      eb.or([containsIgnoringCase(db, 'name', keyword), containsIgnoringCase(db, 'description', keyword)]),
    );
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .selectAll()
    .orderBy('modified_at', 'desc')
    .orderBy('id', 'desc')
    .offset(options.offset)
    .limit(options.limit)
    .execute();
  return { total, rows };
}

/** Ids of every LiveDoc a user may search: their own and those shared with them. */
export async function visibleIds(db: Kysely<Database>, userId: string): Promise<string[]> {
  const own = await db.selectFrom('livedocs').select('id').where('owner_id', '=', userId).execute();
  const shared = await db
    .selectFrom('livedoc_shares')
    .select('livedoc_id as id')
    .where('user_id', '=', userId)
    .execute();
  return [...own, ...shared].map((r) => r.id);
}
