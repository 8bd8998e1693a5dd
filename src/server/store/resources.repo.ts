import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ResourcesTable } from './database.js';
import { changing } from './view-cache.js';

// A LiveDoc's list item shows its newest resources (its readme): every write here changes lists.

export type ResourceRow = Selectable<ResourcesTable>;

export async function insertResource(db: Kysely<Database>, row: ResourceRow): Promise<void> {
  await changing('livedocs', () => db.insertInto('livedoc_resources').values(row).execute());
}

export async function findResource(
  db: Kysely<Database>,
  livedocId: string,
  id: string,
): Promise<ResourceRow | undefined> {
  return db
    .selectFrom('livedoc_resources')
    .selectAll()
    .where('livedoc_id', '=', livedocId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findResourceById(db: Kysely<Database>, id: string): Promise<ResourceRow | undefined> {
  return db.selectFrom('livedoc_resources').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findResourcesByIds(db: Kysely<Database>, ids: string[]): Promise<ResourceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('livedoc_resources').selectAll().where('id', 'in', ids).execute();
}

export async function findByKey(
  db: Kysely<Database>,
  livedocId: string,
  key: string,
): Promise<ResourceRow | undefined> {
  return db
    .selectFrom('livedoc_resources')
    .selectAll()
    .where('livedoc_id', '=', livedocId)
    .where('resource_key', '=', key)
    .executeTakeFirst();
}

/** The web pages of a LiveDoc with their text, oldest first, at most `limit` (to find the same page added again). */
export async function webTexts(
  db: Kysely<Database>,
  livedocId: string,
  limit: number,
): Promise<Array<{ id: string; text: string | null }>> {
  return db
    .selectFrom('livedoc_resources')
    .select(['id', 'text'])
    .where('livedoc_id', '=', livedocId)
    .where('resource_type', '=', 'web')
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function updateResource(
  db: Kysely<Database>,
  id: string,
  patch: Updateable<ResourcesTable>,
): Promise<void> {
  await changing('livedocs', () => db.updateTable('livedoc_resources').set(patch).where('id', '=', id).execute());
}

export async function deleteResource(db: Kysely<Database>, id: string): Promise<void> {
  await changing('livedocs', () => db.deleteFrom('livedoc_resources').where('id', '=', id).execute());
}

export async function pageResources(
  db: Kysely<Database>,
  livedocId: string,
  options: { types?: string[]; offset: number; limit: number },
) {
  let q = db.selectFrom('livedoc_resources').where('livedoc_id', '=', livedocId);
  if (options.types && options.types.length > 0) q = q.where('resource_type', 'in', options.types);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .offset(options.offset)
    .limit(options.limit)
    .execute();
  return { total, rows };
}

/**
 * Titles and snippets of the newest resources of some LiveDocs, for their readme: `perDoc` of each,
 * in one statement. The database numbers each LiveDoc's resources newest first (a window over the
 * (livedoc_id, created_at) index) and returns only the first `perDoc`, so a page of LiveDocs never
 * carries every resource's snippet into the process, and costs one query whatever the page size.
 */
export async function newestPerLiveDoc(db: Kysely<Database>, livedocIds: string[], perDoc: number) {
  const out = new Map<string, Array<Pick<ResourceRow, 'title' | 'snippet' | 'link'>>>();
  if (livedocIds.length === 0) return out;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('livedoc_resources')
        .select(['livedoc_id', 'title', 'snippet', 'link', 'created_at'])
        .select((w) =>
          w.fn
            .agg<number>('row_number')
            .over((o) => o.partitionBy('livedoc_id').orderBy('created_at', 'desc'))
            .as('rank'),
        )
        .where('livedoc_id', 'in', livedocIds)
        .as('ranked'),
    )
    .select(['livedoc_id', 'title', 'snippet', 'link'])
    .where('rank', '<=', perDoc)
    .orderBy('livedoc_id')
    .orderBy('created_at', 'desc')
    .execute();
  for (const { livedoc_id, ...r } of rows) {
    const list = out.get(livedoc_id) ?? [];
    list.push(r);
    out.set(livedoc_id, list);
  }
  return out;
}
