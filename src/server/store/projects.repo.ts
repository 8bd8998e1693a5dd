import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ProjectFilesTable, ProjectSitesTable, ProjectsTable } from './database.js';

export type ProjectRow = Selectable<ProjectsTable>;
export type SiteRow = Selectable<ProjectSitesTable>;
export type ProjectFileRow = Selectable<ProjectFilesTable>;

export async function insertProject(db: Kysely<Database>, row: ProjectRow): Promise<void> {
  await db.insertInto('projects').values(row).execute();
}

/** Inserts a default project unless the (user, default_for) pair already has one; returns it. */
export async function insertDefaultProject(db: Kysely<Database>, row: ProjectRow): Promise<ProjectRow> {
  await db
    .insertInto('projects')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'default_for']).doNothing())
    .execute();
  return (await findDefaultProject(db, row.user_id, row.default_for!))!;
}

export async function findDefaultProject(
  db: Kysely<Database>,
  userId: string,
  defaultFor: string,
): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('user_id', '=', userId)
    .where('default_for', '=', defaultFor)
    .executeTakeFirst();
}

/** Only the owner's project: another user's id reads as missing. */
export async function findOwnedProject(
  db: Kysely<Database>,
  id: string,
  userId: string,
): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function listProjects(db: Kysely<Database>, userId: string): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateProject(db: Kysely<Database>, id: string, set: Updateable<ProjectsTable>): Promise<void> {
  await db.updateTable('projects').set(set).where('id', '=', id).execute();
}

export async function deleteProjectRow(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('project_sites').where('project_id', '=', id).execute();
  await db.deleteFrom('project_files').where('project_id', '=', id).execute();
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

export async function insertSite(db: Kysely<Database>, row: SiteRow): Promise<void> {
  await db.insertInto('project_sites').values(row).execute();
}

export async function listSites(db: Kysely<Database>, projectId: string): Promise<SiteRow[]> {
  return db
    .selectFrom('project_sites')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findSite(db: Kysely<Database>, projectId: string, siteId: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom('project_sites')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', siteId)
    .executeTakeFirst();
}

export async function deleteSite(db: Kysely<Database>, projectId: string, siteId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('project_sites')
    .where('project_id', '=', projectId)
    .where('id', '=', siteId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function insertProjectFile(db: Kysely<Database>, row: ProjectFileRow): Promise<void> {
  await db.insertInto('project_files').values(row).execute();
}

export async function listProjectFiles(db: Kysely<Database>, projectId: string): Promise<ProjectFileRow[]> {
  return db
    .selectFrom('project_files')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function deleteProjectFile(db: Kysely<Database>, projectId: string, fileId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('project_files')
    .where('project_id', '=', projectId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
