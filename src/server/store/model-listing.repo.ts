import type { Kysely } from 'kysely';
import type { Database, ModelListingTable } from './database.js';

export async function listModelListing(db: Kysely<Database>): Promise<Map<string, boolean>> {
  const rows = await db.selectFrom('model_listing').select(['model_id', 'listed']).execute();
  return new Map(rows.map((r) => [r.model_id, Number(r.listed) === 1]));
}

export async function setModelListing(
  db: Kysely<Database>,
  modelId: string,
  listed: boolean,
  at: string,
  by: string | null,
): Promise<void> {
  const values: Omit<ModelListingTable, 'model_id'> = { listed: listed ? 1 : 0, updated_at: at, updated_by: by };
  await db
    .insertInto('model_listing')
    .values({ model_id: modelId, ...values })
    .onConflict((oc) => oc.column('model_id').doUpdateSet(values))
    .execute();
}
