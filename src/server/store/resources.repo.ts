import type { Kysely, Selectable, Updateable } from 'kysely';
import { preparedQuery } from './prepared.js';
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

/**
 * Titles and snippets of the newest resources of some LiveDocs, for their readme: `perDoc` of each,
 * read per LiveDoc from the (livedoc_id, created_at) index, so a page of LiveDocs costs the same
 * whatever the number of resources in them.
 */
export async function newestPerLiveDoc(db: Kysely<Database>, livedocIds: string[], perDoc: number) {
  const lists = await Promise.all(livedocIds.map((id) => newestOf(db, id, perDoc)));
  return new Map(livedocIds.map((id, i) => [id, lists[i] as Array<Pick<ResourceRow, 'title' | 'snippet' | 'link'>>]));
}

const newestOf = preparedQuery((db: Kysely<Database>, livedocId: string, limit: number) =>
  db.selectFrom('livedoc_resources').select(['title', 'snippet', 'link']).where('livedoc_id', '=', livedocId).orderBy('created_at', 'desc').limit(limit),
);
