import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { DocTaskStatus, TaskHistorical } from '../../contract/doc-tasks.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import { JobFailure, type JobContext, type JobRow } from '../jobs/queue.js';
import { pageLink } from '../auth/signed-links.js';
import * as repo from '../store/doc-tasks.repo.js';

export type { DocTaskRow } from '../store/doc-tasks.repo.js';
type DocTaskRow = repo.DocTaskRow;

/** The two kinds of spec 2.6 tasks; each registers its runner once at start-up. */
export type DocTaskKind = 'ppt' | 'landing_page';

/** A completed task's outputs are kept this long by default, then the task is EXPIRED (`--task-retention-days`). */
export const DEFAULT_TASK_RETENTION_DAYS = 30;

/**
 * Thrown by a runner when something outside the platform that the task needs is unavailable
 * (the model upstream): the task ends PENDING with this message, nothing produced, and
 * POST /v2/tasks/{id}/retry runs it again once the outside service is back.
 */
export class TaskParked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskParked';
  }
}

export interface DocTaskKindHandlers {
  /** Produces the task's outputs; what it returns is kept as the task's result (JSON). */
  run(task: DocTaskRow, job: JobContext<{ task_id: string }>): Promise<Record<string, unknown>>;
  /** Deletes the outputs when the retention window ends (the task becomes EXPIRED). */
  removeOutputs(task: DocTaskRow): Promise<void>;
}

type Ctx = Pick<AppContext, 'db' | 'now' | 'jobs' | 'baseUrl' | 'tokenSecret' | 'config'>;

const jobKind = (kind: DocTaskKind) => `doc-task:${kind}`;
const kinds = new WeakMap<object, Map<DocTaskKind, DocTaskKindHandlers>>();

function handlersOf(ctx: Pick<AppContext, 'jobs'>): Map<DocTaskKind, DocTaskKindHandlers> {
  let map = kinds.get(ctx.jobs);
  if (!map) kinds.set(ctx.jobs, (map = new Map<DocTaskKind, DocTaskKindHandlers>()));
  return map;
}

/**
 * Registers a task kind with the job queue. The runner's end is written on the task row: a result
 * → completed; JobFailure → failed with its message; TaskParked → pending. Other errors are
 * transient: the queue retries them, and when attempts run out the job's error is the task's.
 */
export function registerDocTaskKind(ctx: Ctx, kind: DocTaskKind, handlers: DocTaskKindHandlers): void {
  handlersOf(ctx).set(kind, handlers);
  ctx.jobs.register<{ task_id: string }>(
    jobKind(kind),
    async (job) => {
      const task = await repo.findDocTask(ctx.db, job.payload.task_id);
      if (!task) throw new JobFailure(`task ${job.payload.task_id} no longer exists`);
      // A run that finished its work and crashed before the job was marked done is not redone.
      if (task.outcome === 'completed') return { task_id: task.id };
      const at = () => ctx.now().toISOString();
      try {
        const result = await handlers.run(task, job);
        job.signal.throwIfAborted();
        await repo.setOutcome(
          ctx.db,
          task.id,
          { outcome: 'completed', error_message: null, result: JSON.stringify(result), finished_at: at(), at: at() },
          true,
        );
        return { task_id: task.id };
      } catch (err) {
        if (job.signal.aborted) throw err;
        if (err instanceof TaskParked) {
          await repo.setOutcome(
            ctx.db,
            task.id,
            { outcome: 'pending', error_message: err.message, finished_at: at(), at: at() },
            true,
          );
          throw new JobFailure(err.message);
        }
        if (err instanceof JobFailure && !err.retryable) {
          await repo.setOutcome(
            ctx.db,
            task.id,
            { outcome: 'failed', error_message: err.message, finished_at: at(), at: at() },
            true,
          );
        }
        throw err;
      }
    },
    { maxAttempts: 3, retryDelayMs: 1000 },
  );
}

/**
 * Makes a task and queues its run. The task and its job are two inserts; if queueing fails the
 * task row is removed again, so no task exists without a job.
 */
export async function createDocTask(
  ctx: Ctx,
  auth: AuthContext,
  input: { kind: DocTaskKind; livedocId: string; request: unknown },
): Promise<DocTaskRow> {
  if (!handlersOf(ctx).has(input.kind)) throw new Error(`no runner registered for ${input.kind} tasks`);
  const at = ctx.now().toISOString();
  const id = newId('task');
  const row: DocTaskRow = {
    id,
    kind: input.kind,
    user_id: auth.user.id,
    api_key_id: auth.apiKey?.id ?? null,
    livedoc_id: input.livedocId,
    biz_id: newId(input.kind === 'ppt' ? 'ppt' : 'page'),
    job_id: id,
    request: JSON.stringify(input.request),
    result: null,
    outcome: null,
    error_message: null,
    created_at: at,
    updated_at: at,
    finished_at: null,
  };
  await repo.insertDocTask(ctx.db, row);
  try {
    await ctx.jobs.enqueue(jobKind(input.kind), { task_id: id }, { id });
  } catch (err) {
    await repo.deleteDocTask(ctx.db, id).catch(() => undefined);
    throw err;
  }
  return row;
}

function retentionMs(ctx: Ctx): number {
  return (ctx.config.taskRetentionDays ?? DEFAULT_TASK_RETENTION_DAYS) * 86_400_000;
}

/** The task's spec-3 status from its row and its job (docs/decisions.md "Document tasks"). */
export function statusOf(
  ctx: Ctx,
  task: DocTaskRow,
  job: JobRow | undefined,
): { status: DocTaskStatus; error: string } {
  switch (task.outcome) {
    case 'expired':
      return { status: 'EXPIRED', error: 'the outputs of this task were removed at the end of their retention window' };
    case 'completed':
      if (task.finished_at && ctx.now().getTime() - Date.parse(task.finished_at) > retentionMs(ctx))
        return statusOf(ctx, { ...task, outcome: 'expired' }, job);
      return { status: 'COMPLETED', error: '' };
    case 'canceled':
      return { status: 'CANCELED', error: task.error_message ?? '' };
    case 'pending':
      return { status: 'PENDING', error: task.error_message ?? '' };
    case 'failed':
      return { status: 'FAILED', error: task.error_message ?? '' };
  }
  if (!job) return { status: 'FAILED', error: 'the run of this task no longer exists' };
  switch (job.state) {
    case 'queued':
    case 'running':
      return { status: 'RUNNING', error: '' };
    case 'canceled':
      return { status: 'CANCELED', error: 'canceled before it finished' };
    case 'failed':
      return { status: 'FAILED', error: job.error ?? '' };
    case 'succeeded':
      return { status: 'COMPLETED', error: '' };
  }
}

/** The caller's own task; another user's id is a 404 like an unknown one. */
async function ownTask(ctx: Ctx, auth: AuthContext, id: string): Promise<DocTaskRow> {
  const task = await repo.findDocTask(ctx.db, id);
  if (!task || task.user_id !== auth.user.id) throw new HttpError('NOT_FOUND', `task ${id} not found`);
  return task;
}

/**
 * The user's task with its job, read so the two agree: the runner writes the task's outcome before
 * its job ends, so a job seen ended beside a task seen without an outcome means the two reads
 * straddled those commits (a poll saw a parked task as FAILED for a moment): the task is read again.
 */
async function ownTaskAndJob(
  ctx: Ctx,
  auth: AuthContext,
  id: string,
): Promise<{ task: DocTaskRow; job: JobRow | undefined }> {
  const task = await ownTask(ctx, auth, id);
  const job = await ctx.jobs.get(task.job_id);
  if (task.outcome === null && job && job.state !== 'queued' && job.state !== 'running') {
    return { task: (await repo.findDocTask(ctx.db, task.id)) ?? task, job };
  }
  return { task, job };
}

export async function taskStatus(ctx: Ctx, auth: AuthContext, id: string): Promise<{ status: DocTaskStatus }> {
  const { task, job } = await ownTaskAndJob(ctx, auth, id);
  return { status: statusOf(ctx, task, job).status };
}

/** Where the task's outputs are viewed: the slide viewer (both kinds), the landing page itself, the LiveDoc. */
export function taskLinks(ctx: Ctx, task: DocTaskRow) {
  return {
    ppt_url: pageLink(ctx, 'slides', task.biz_id, `/slides/${encodeURIComponent(task.biz_id)}`),
    ai_page_html:
      task.kind === 'landing_page'
        ? pageLink(ctx, 'page', task.biz_id, `/pages/${encodeURIComponent(task.biz_id)}`)
        : undefined,
    live_doc_url: pageLink(ctx, 'livedoc', task.livedoc_id, `/livedocs/${encodeURIComponent(task.livedoc_id)}`),
  };
}

/** Spec 2.6. Fields present exactly as its table says; links only to outputs that exist. */
export function historicalOf(ctx: Ctx, task: DocTaskRow, job: JobRow | undefined): TaskHistorical {
  const { status, error } = statusOf(ctx, task, job);
  const links = taskLinks(ctx, task);
  const hasOutputs = status === 'COMPLETED';
  const deck = hasOutputs && task.kind === 'ppt' ? deckCounts(task.result) : {};
  return {
    task_id: task.id,
    task_status: status,
    ppt_biz_id: task.biz_id,
    ppt_url: links.ppt_url,
    ...(status === 'RUNNING' || status === 'COMPLETED' ? {} : { error_message: error }),
    ...(hasOutputs && links.ai_page_html ? { ai_page_html: links.ai_page_html } : {}),
    // The LiveDoc exists from the start (it was named or made when the task was created).
    live_doc_short_id: task.livedoc_id,
    live_doc_url: links.live_doc_url,
    kind: task.kind as DocTaskKind,
    created_at: task.created_at,
    finished_at: task.finished_at,
    ...deck,
  };
}

/** The slide counts a completed deck's task kept in its result (older results have none). */
function deckCounts(result: string | null | undefined): Partial<TaskHistorical> {
  if (!result) return {};
  try {
    const r = JSON.parse(result) as Record<string, unknown>;
    if (typeof r.slides_requested !== 'number' || typeof r.content_slides !== 'number') return {};
    return {
      slides_requested: r.slides_requested,
      content_slides: r.content_slides,
      ...(typeof r.note === 'string' ? { note: r.note } : {}),
    };
  } catch {
    return {};
  }
}

export async function taskHistorical(ctx: Ctx, auth: AuthContext, id: string): Promise<TaskHistorical> {
  const { task, job } = await ownTaskAndJob(ctx, auth, id);
  return historicalOf(ctx, task, job);
}

/** Cancels a RUNNING task (the engine's signal is aborted); an ended task is returned as it is. */
export async function cancelTask(ctx: Ctx, auth: AuthContext, id: string): Promise<TaskHistorical> {
  const { task, job } = await ownTaskAndJob(ctx, auth, id);
  if (statusOf(ctx, task, job).status === 'RUNNING') {
    const at = ctx.now().toISOString();
    // Written first, so a runner that finishes meanwhile does not turn it into COMPLETED.
    await repo.setOutcome(
      ctx.db,
      task.id,
      { outcome: 'canceled', error_message: "canceled at the owner's request", finished_at: at, at },
      true,
    );
    await ctx.jobs.cancel(task.job_id);
  }
  return taskHistorical(ctx, auth, id);
}

/** Runs a PENDING or FAILED task again from the start; 409 CONFLICT for any other state. */
export async function retryTask(ctx: Ctx, auth: AuthContext, id: string): Promise<TaskHistorical> {
  const { task, job } = await ownTaskAndJob(ctx, auth, id);
  const { status } = statusOf(ctx, task, job);
  if (status !== 'PENDING' && status !== 'FAILED') {
    throw new HttpError('CONFLICT', `task ${id} is ${status}; only a PENDING or FAILED task can be run again`, {
      status: 409,
    });
  }
  const at = ctx.now().toISOString();
  await repo.setOutcome(ctx.db, task.id, { outcome: null, error_message: null, finished_at: null, at });
  const retried = await ctx.jobs.retry(task.job_id);
  if (!retried || retried.outcome !== 'requeued') {
    // The job is still winding down (its failure not yet written): put the outcome back.
    await repo.setOutcome(ctx.db, task.id, {
      outcome: task.outcome,
      error_message: task.error_message,
      finished_at: task.finished_at,
      at,
    });
    throw new HttpError('CONFLICT', `task ${id} is still stopping; retry in a moment`, {
      status: 409,
      headers: { 'retry-after': '1' },
    });
  }
  return taskHistorical(ctx, auth, id);
}

/** A task by its business id, for the pages that show its outputs (they check the link, not a key). */
export function findTaskByBiz(ctx: Pick<AppContext, 'db'>, bizId: string): Promise<DocTaskRow | undefined> {
  return repo.findDocTaskByBiz(ctx.db, bizId);
}

/** The task's result as its runner returned it, or null before it completed. */
export function taskResult<T>(task: DocTaskRow): T | null {
  return task.result ? (JSON.parse(task.result) as T) : null;
}

/** The status a page showing `task` should go by (a page serves outputs only while COMPLETED). */
export async function currentStatus(ctx: Ctx, task: DocTaskRow): Promise<DocTaskStatus> {
  return statusOf(ctx, task, await ctx.jobs.get(task.job_id)).status;
}

/**
 * Ends the retention window of completed tasks: their outputs are removed and they read EXPIRED.
 * Safe on several instances: each task is marked expired by one sweeper only, and that one removes.
 */
export async function sweepExpiredTasks(ctx: Ctx): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - retentionMs(ctx)).toISOString();
  let removed = 0;
  for (;;) {
    const batch = await repo.completedBefore(ctx.db, cutoff, 100);
    if (batch.length === 0) return removed;
    for (const task of batch) {
      if (!(await repo.markExpired(ctx.db, task.id, ctx.now().toISOString()))) continue;
      await handlersOf(ctx)
        .get(task.kind as DocTaskKind)
        ?.removeOutputs(task);
      removed++;
    }
  }
}
