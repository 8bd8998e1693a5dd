import type { ProjectFile, ProjectInfo, SiteInfo } from '../../contract/image-projects.js';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError, notFound } from '../errors.js';
import { newId } from '../store/ids.js';
import * as repo from '../store/projects.repo.js';
import * as tasksRepo from '../store/tasks.repo.js';
import type { UploadedPart } from '../http/multipart.js';
import { mimeTypeOf } from '../files/mime.js';
import { taskPrefix } from './task-files.js';
import { fileKey } from '../files/file-store.js';

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'jobs' | 'files'>;

export function projectInfo(row: repo.ProjectRow): ProjectInfo {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_default: row.default_for !== null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function siteInfo(row: repo.SiteRow): SiteInfo {
  return { ...row };
}

export function fileInfo(row: repo.ProjectFileRow): ProjectFile {
  return { ...row };
}

/** A project's files live under projects/<id>/<file id> in the file store: names never touch the key. */
export function projectFilesPrefix(projectId: string): string {
  return fileKey('projects', projectId);
}

export async function ownedProject(ctx: Ctx, id: string, userId: string): Promise<repo.ProjectRow> {
  const row = await repo.findOwnedProject(ctx.db, id, userId);
  if (!row) throw notFound(`project ${id}`);
  return row;
}

export async function listProjects(ctx: Ctx, userId: string): Promise<ProjectInfo[]> {
  return (await repo.listProjects(ctx.db, userId)).map(projectInfo);
}

export async function createProject(
  ctx: Ctx,
  userId: string,
  input: { name: string; description?: string },
): Promise<ProjectInfo> {
  const now = ctx.now().toISOString();
  const row: repo.ProjectRow = {
    id: newId('prj'),
    user_id: userId,
    name: input.name,
    description: input.description ?? null,
    default_for: null,
    created_at: now,
    updated_at: now,
  };
  await repo.insertProject(ctx.db, row);
  return projectInfo(row);
}

/**
 * The project a task without project_id goes to (spec 2.2): one per API key when the call was made
 * with a key, one per user otherwise; created on first use, then reused.
 */
export async function defaultProject(ctx: Ctx, auth: AuthContext): Promise<repo.ProjectRow> {
  const defaultFor = auth.apiKey ? auth.apiKey.id : 'user';
  const existing = await repo.findDefaultProject(ctx.db, auth.user.id, defaultFor);
  if (existing) return existing;
  const now = ctx.now().toISOString();
  return repo.insertDefaultProject(ctx.db, {
    id: newId('prj'),
    user_id: auth.user.id,
    name: auth.apiKey ? `Default (key ${auth.apiKey.name})` : 'Default',
    description: auth.apiKey
      ? `Tasks created with API key ${auth.apiKey.prefix}… and no project_id`
      : 'Tasks created with no project_id',
    default_for: defaultFor,
    created_at: now,
    updated_at: now,
  });
}

export async function updateProject(
  ctx: Ctx,
  id: string,
  userId: string,
  input: { name?: string; description?: string | null },
): Promise<ProjectInfo> {
  await ownedProject(ctx, id, userId);
  await repo.updateProject(ctx.db, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    updated_at: ctx.now().toISOString(),
  });
  return projectInfo((await repo.findOwnedProject(ctx.db, id, userId))!);
}

/** Deletes a project with its sites, files, tasks and their outputs; refused while work is pending. */
export async function deleteProject(ctx: Ctx, id: string, userId: string): Promise<void> {
  await ownedProject(ctx, id, userId);
  const tasks = await tasksRepo.tasksOfProject(ctx.db, id);
  const jobs = await ctx.jobs.getMany(tasks.map((t) => t.job_id));
  const busy = jobs.filter((j) => j.state === 'queued' || j.state === 'running');
  if (busy.length > 0)
    throw new HttpError('CONFLICT', `project ${id} has ${busy.length} queued or running task(s); cancel them first`);
  await tasksRepo.deleteTasks(
    ctx.db,
    tasks.map((t) => t.id),
  );
  await ctx.jobs.forget(tasks.map((t) => t.job_id));
  await repo.deleteProjectRow(ctx.db, id);
  for (const t of tasks) await ctx.files.deletePrefix(taskPrefix(t.id));
  await ctx.files.deletePrefix(projectFilesPrefix(id));
}

export async function listSites(ctx: Ctx, projectId: string, userId: string): Promise<SiteInfo[]> {
  await ownedProject(ctx, projectId, userId);
  return (await repo.listSites(ctx.db, projectId)).map(siteInfo);
}

export async function addSite(
  ctx: Ctx,
  projectId: string,
  userId: string,
  input: { url: string; title?: string },
): Promise<SiteInfo> {
  await ownedProject(ctx, projectId, userId);
  const row: repo.SiteRow = {
    id: newId('site'),
    project_id: projectId,
    url: input.url,
    title: input.title ?? null,
    created_at: ctx.now().toISOString(),
  };
  await repo.insertSite(ctx.db, row);
  return siteInfo(row);
}

export async function removeSite(ctx: Ctx, projectId: string, siteId: string, userId: string): Promise<void> {
  await ownedProject(ctx, projectId, userId);
  if (!(await repo.deleteSite(ctx.db, projectId, siteId))) throw notFound(`site ${siteId}`);
}

export async function listFiles(ctx: Ctx, projectId: string, userId: string): Promise<ProjectFile[]> {
  await ownedProject(ctx, projectId, userId);
  return (await repo.listProjectFiles(ctx.db, projectId)).map(fileInfo);
}

/** Stores uploaded parts in the project's folder, by id so names never touch the key. */
export async function addFiles(ctx: Ctx, projectId: string, parts: UploadedPart[]): Promise<ProjectFile[]> {
  const out: ProjectFile[] = [];
  for (const part of parts) {
    const row: repo.ProjectFileRow = {
      id: newId('file'),
      project_id: projectId,
      name: part.filename,
      size: part.size,
      mime_type: part.mimeType === 'application/octet-stream' ? mimeTypeOf(part.filename) : part.mimeType,
      sha256: part.sha256,
      created_at: ctx.now().toISOString(),
    };
    await ctx.files.putFile(`${projectFilesPrefix(projectId)}/${row.id}`, part.tmpPath, row.mime_type);
    await repo.insertProjectFile(ctx.db, row);
    out.push(fileInfo(row));
  }
  return out;
}

export async function deleteFile(ctx: Ctx, projectId: string, fileId: string, userId: string): Promise<void> {
  await ownedProject(ctx, projectId, userId);
  if (!(await repo.deleteProjectFile(ctx.db, projectId, fileId))) throw notFound(`file ${fileId}`);
  await ctx.files.delete(`${projectFilesPrefix(projectId)}/${fileId}`);
}
