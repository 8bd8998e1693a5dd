import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ResourcesTable } from './database.js';

export type ResourceRow = Selectable<ResourcesTable>;

export async function insertResource(db: Kysely<Database>, row: ResourceRow): Promise<void> {
  await db.insertInto('livedoc_resources').values(row).execute();
}

export async function findResource(db: Kysely<Database>, livedocId: string, id: string): Promise<ResourceRow | undefined> {
  return db.selectFrom('livedoc_resources').selectAll().where('livedoc_id', '=', livedocId).where('id', '=', id).executeTakeFirst();
}

export async function findResourceById(db: Kysely<Database>, id: string): Promise<ResourceRow | undefined> {
  return db.selectFrom('livedoc_resources').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findResourcesByIds(db: Kysely<Database>, ids: string[]): Promise<ResourceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('livedoc_resources').selectAll().where('id', 'in', ids).execute();
}

export async function findByKey(db: Kysely<Database>, livedocId: string, key: string): Promise<ResourceRow | undefined> {
  return db.selectFrom('livedoc_resources').selectAll().where('livedoc_id', '=', livedocId).where('resource_key', '=', key).executeTakeFirst();
}

export async function updateResource(db: Kysely<Database>, id: string, patch: Updateable<ResourcesTable>): Promise<void> {
  await db.updateTable('livedoc_resources').set(patch).where('id', '=', id).execute();
}

export async function deleteResource(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('livedoc_resources').where('id', '=', id).execute();
}

export async function pageResources(db: Kysely<Database>, livedocId: string, options: { types?: string[]; offset: number; limit: number }) {
  let q = db.selectFrom('livedoc_resources').where('livedoc_id', '=', livedocId);
  if (options.types && options.types.length > 0) q = q.where('resource_type', 'in', options.types);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(options.offset).limit(options.limit).execute();
  return { total, rows };
}

/** Titles and snippets of the newest resources of some LiveDocs, for their readme. */
export async function newestPerLiveDoc(db: Kysely<Database>, livedocIds: string[], perDoc: number) {
  if (livedocIds.length === 0) return new Map<string, Array<Pick<ResourceRow, 'title' | 'snippet' | 'link'>>>();
  const rows = await db
    .selectFrom('livedoc_resources')
    .select(['livedoc_id', 'title', 'snippet', 'link'])
    .where('livedoc_id', 'in', livedocIds)
    .orderBy('created_at', 'desc')
    .execute();
  const out = new Map<string, Array<Pick<ResourceRow, 'title' | 'snippet' | 'link'>>>();
  for (const r of rows) {
    const list = out.get(r.livedoc_id) ?? [];
    if (list.length < perDoc) list.push(r);
    out.set(r.livedoc_id, list);
  }
  return out;
}
