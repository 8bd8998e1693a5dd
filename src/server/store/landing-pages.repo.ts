import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * The first chunks of a LiveDoc (or of some of its resources), newest resource first and in reading
 * order within each: what a landing page is written from when the query's words match nothing.
 */
export async function leadingChunks(
  db: Kysely<Database>,
  livedocId: string,
  resourceIds: string[] | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('resource_chunks as c')
    .innerJoin('livedoc_resources as r', 'r.id', 'c.resource_id')
    .select([
      'c.resource_id',
      'c.title',
      'c.content',
      'c.ordinal',
      'r.title as resource_title',
      'r.link',
      'r.resource_type',
    ])
    .where('c.livedoc_id', '=', livedocId);
  if (resourceIds) q = q.where('c.resource_id', 'in', resourceIds);
  return q.orderBy('r.created_at', 'desc').orderBy('c.resource_id').orderBy('c.ordinal').limit(limit).execute();
}
