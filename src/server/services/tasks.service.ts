import { TaskCreateFields, type TaskInfo } from '../../contract/image-tasks.js';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError, RequestValidationError, notFound } from '../errors.js';
import { validatePart } from '../http/validate.js';
import type { MultipartResult } from '../http/multipart.js';
import { newId } from '../store/ids.js';
import * as tasksRepo from '../store/tasks.repo.js';
import * as projectsRepo from '../store/projects.repo.js';
import type { JobRow } from '../jobs/queue.js';
import { IMAGE_MODELS } from '../engines/image-models.js';
import { mimeTypeOf } from '../files/mime.js';
import { defaultProject, ownedProject } from './projects.service.js';
import { taskInputKey } from './task-files.js';

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'jobs' | 'files'>;

export const IMAGE_TASK_JOB = 'image-task';

/** What a task row's params column holds. */
export interface TaskParams {
  model: string;
  prompt: string | null;
  url: string | null;
  width: number;
  height: number;
  count: number;
  full_page: boolean;
  reference_files: Array<{ name: string; size: number; mime_type: string; stored: string }>;
}

function parseSize(size: string): { width: number; height: number } {
  const [w, h] = size.split('x').map(Number);
  return { width: w, height: h };
}

function sizeIssue(msg: string): RequestValidationError {
  return new RequestValidationError([{ loc: ['body', 'size'], msg, type: 'value_error' }], false);
}

export function taskInfo(task: tasksRepo.TaskRow, job: JobRow | undefined): TaskInfo {
  const p = JSON.parse(task.params) as TaskParams;
  return {
    id: task.id,
    project_id: task.project_id,
    site_id: task.site_id,
    kind: task.kind,
    model: p.model,
    status: job?.state ?? 'failed',
    prompt: p.prompt,
    url: p.url,
    width: p.width,
    height: p.height,
    count: p.count,
    full_page: p.full_page,
    reference_files: p.reference_files.map(({ name, size, mime_type }) => ({ name, size, mime_type })),
    attempts: job?.attempts ?? 0,
    max_attempts: job?.max_attempts ?? 0,
    error: job ? (job.state === 'succeeded' ? null : job.error) : 'the job record of this task is missing',
    result: job?.state === 'succeeded' && job.result ? JSON.parse(job.result) : null,
    created_at: task.created_at,
    updated_at: job?.updated_at ?? task.created_at,
    started_at: job?.started_at ?? null,
    finished_at: job?.finished_at ?? null,
  };
}

/** Validates the form, binds project and site, keeps the reference files and enqueues the job. */
export async function createTask(ctx: Ctx, auth: AuthContext, form: MultipartResult): Promise<TaskInfo> {
  const fields = validatePart('body', TaskCreateFields, form.fields);
  const model = IMAGE_MODELS.find((m) => m.kind === fields.kind)!;
  const { width, height } = parseSize(fields.size ?? model.default_size);
  const max = parseSize(model.max_size);
  if (width < 16 || height < 16) throw sizeIssue('width and height must be at least 16');
  if (width > max.width || height > max.height) throw sizeIssue(`at most ${model.max_size} for ${model.id}`);

  let project: projectsRepo.ProjectRow;
  let siteId: string | null = null;
  if (fields.project_id) project = await ownedProject(ctx, fields.project_id, auth.user.id);
  else if (fields.site_id) {
    // A site alone names its project.
    const site = await ctx.db
      .selectFrom('project_sites')
      .innerJoin('projects', 'projects.id', 'project_sites.project_id')
      .select('project_sites.project_id')
      .where('project_sites.id', '=', fields.site_id)
      .where('projects.user_id', '=', auth.user.id)
      .executeTakeFirst();
    if (!site) throw notFound(`site ${fields.site_id}`);
    project = await ownedProject(ctx, site.project_id, auth.user.id);
  } else project = await defaultProject(ctx, auth);
  if (fields.site_id) {
    if (!(await projectsRepo.findSite(ctx.db, project.id, fields.site_id)))
      throw notFound(`site ${fields.site_id} in project ${project.id}`);
    siteId = fields.site_id;
  }

  const taskId = newId('task');
  const references: TaskParams['reference_files'] = [];
  for (const [i, f] of form.files.entries()) {
    const stored = `${i + 1}-${f.filename}`;
    await ctx.files.putFile(taskInputKey(taskId, stored), f.tmpPath, f.mimeType);
    references.push({
      name: f.filename,
      size: f.size,
      mime_type: f.mimeType === 'application/octet-stream' ? mimeTypeOf(f.filename) : f.mimeType,
      stored,
    });
  }
  const params: TaskParams = {
    model: model.id,
    prompt: fields.prompt ?? null,
    url: fields.url ?? null,
    width,
    height,
    count: fields.count,
    full_page: fields.full_page,
    reference_files: references,
  };
  const jobId = newId('job');
  const row: tasksRepo.TaskRow = {
    id: taskId,
    user_id: auth.user.id,
    api_key_id: auth.apiKey?.id ?? null,
    project_id: project.id,
    site_id: siteId,
    kind: fields.kind,
    params: JSON.stringify(params),
    job_id: jobId,
    created_at: ctx.now().toISOString(),
  };
  // One transaction for the task and its job: the task row is there when the job can be claimed,
  // and a failed enqueue leaves no task without a job.
  const job = await ctx.jobs.enqueue(
    IMAGE_TASK_JOB,
    { task_id: taskId },
    { id: jobId, alongside: [tasksRepo.insertTaskStatement(ctx.db, row)] },
  );
  return taskInfo(row, job);
}

export async function ownedTask(ctx: Ctx, taskId: string, userId: string): Promise<tasksRepo.TaskRow> {
  const t = await tasksRepo.findOwnedTask(ctx.db, taskId, userId);
  if (!t) throw notFound(`task ${taskId}`);
  return t;
}

export async function getTask(ctx: Ctx, taskId: string, userId: string): Promise<TaskInfo> {
  const t = await ownedTask(ctx, taskId, userId);
  return taskInfo(t, await ctx.jobs.get(t.job_id));
}

export async function listTasks(
  ctx: Ctx,
  userId: string,
  q: { project_id?: string; status?: string; limit: number },
): Promise<TaskInfo[]> {
  if (q.project_id) await ownedProject(ctx, q.project_id, userId);
  const rows = await tasksRepo.listTasksWithState(ctx.db, {
    userId,
    projectId: q.project_id,
    state: q.status,
    limit: q.limit,
  });
  const jobs = new Map((await ctx.jobs.getMany(rows.map((r) => r.job_id))).map((j) => [j.id, j]));
  return rows.map((r) => taskInfo(r, jobs.get(r.job_id)));
}

export async function cancelTask(ctx: Ctx, taskId: string, userId: string): Promise<TaskInfo> {
  const t = await ownedTask(ctx, taskId, userId);
  const r = await ctx.jobs.cancel(t.job_id);
  if (!r) throw notFound(`task ${taskId}`);
  if (r.outcome === 'already-ended')
    throw new HttpError(
      'CONFLICT',
      `task ${taskId} has already ${r.job.state}; only a queued or running task can be canceled`,
    );
  return taskInfo(t, r.job);
}

export async function retryTask(ctx: Ctx, taskId: string, userId: string): Promise<TaskInfo> {
  const t = await ownedTask(ctx, taskId, userId);
  const r = await ctx.jobs.retry(t.job_id);
  if (!r) throw notFound(`task ${taskId}`);
  if (r.outcome === 'not-retryable')
    throw new HttpError('CONFLICT', `task ${taskId} is ${r.job.state}; only a failed or canceled task can be retried`);
  return taskInfo(t, r.job);
}

export async function taskLogs(ctx: Ctx, taskId: string, userId: string, q: { after: number; limit: number }) {
  const t = await ownedTask(ctx, taskId, userId);
  const job = await ctx.jobs.get(t.job_id);
  const lines = await ctx.jobs.logs(t.job_id, q.after, q.limit);
  return { task_id: t.id, status: job?.state ?? 'failed', lines, next_after: lines.at(-1)?.id ?? q.after };
}
