import { randomUUID } from 'node:crypto';
import { REVIEW_LIMITS, TASK_STATUS } from '../../contract/beta-seo.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { runEnvelope, TaskError, type ProviderEnvelope } from '../providers/beta/envelope.js';
import { TaskFields } from '../providers/beta/task-fields.js';
import { REVIEW_PLATFORMS, type ReviewPlatform } from '../providers/beta/local/reviews.js';
import * as repo from '../store/beta-reviews.repo.js';
import { callbackUrl } from './beta-review-callbacks.js';
import { REVIEW_JOB } from './beta-reviews.runner.js';

const FIELDS = ['domain', 'depth', 'sort_by', 'priority', 'pingback_url', 'postback_url', 'tag'] as const;
const DOMAIN_RE = /^(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/i;
/** USD per started block of 20 reviews; high priority (2) costs double (provider metadata). */
const COST_PER_20 = 0.0015;
const READY_LIMIT = 1000;

function platformOf(raw: string): ReviewPlatform {
  if (!(REVIEW_PLATFORMS as readonly string[]).includes(raw))
    throw new TaskError(
      TASK_STATUS.invalidPath,
      `unknown review platform ${raw}; platforms: ${REVIEW_PLATFORMS.join(', ')}`,
    );
  return raw as ReviewPlatform;
}

function checkCallback(f: TaskFields, name: 'pingback_url' | 'postback_url'): string | undefined {
  const url = f.string(name, { max: 2000 });
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(callbackUrl(url, '00000000-0000-0000-0000-000000000000', 'tag'));
  } catch {
    throw new TaskError(TASK_STATUS.invalidValue, `${name} is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new TaskError(TASK_STATUS.invalidValue, `${name} must be an http or https URL`);
  return url;
}

/** task_post: each valid task is stored and queued; the envelope names the queued ids. */
export function postReviewTasks(
  ctx: AppContext,
  auth: AuthContext,
  platform: string,
  path: string,
  body: unknown,
): Promise<ProviderEnvelope> {
  return runEnvelope(path, body, async (task) => {
    const p = platformOf(platform);
    const f = new TaskFields(task, FIELDS);
    const domain = f.string('domain', { required: true, max: 253 })!.trim().toLowerCase();
    if (!DOMAIN_RE.test(domain))
      throw new TaskError(TASK_STATUS.invalidValue, `domain ${JSON.stringify(domain)} is not a domain`);
    const depth = f.int('depth', { min: 1, max: REVIEW_LIMITS.maxDepth, default: REVIEW_LIMITS.defaultDepth });
    const sortBy = f.oneOf('sort_by', ['relevance', 'recency'], 'relevance');
    const priority = f.int('priority', { min: 1, max: 2, default: 1 });
    const tag = f.tag();
    checkCallback(f, 'pingback_url');
    checkCallback(f, 'postback_url');
    const id = randomUUID();
    const cost = COST_PER_20 * Math.ceil(depth / 20) * priority;
    await repo.insertReviewTask(ctx.db, {
      id,
      user_id: auth.user.id,
      platform: p,
      data: JSON.stringify(task),
      tag: tag ?? null,
      status: 'queued',
      result: null,
      error: null,
      cost_micro_usd: Math.round(cost * 1e6),
      created_at: ctx.now().toISOString(),
      completed_at: null,
      collected_at: null,
    });
    await ctx.jobs.enqueue(REVIEW_JOB, { taskId: id, domain, depth, sortBy, platform: p }, { id });
    return { id, result: null, cost, status: TASK_STATUS.created };
  });
}

/** tasks_ready: the caller's completed tasks on this platform that task_get has not returned yet. */
export function readyReviewTasks(
  ctx: AppContext,
  auth: AuthContext,
  platform: string,
  path: string,
): Promise<ProviderEnvelope> {
  return runEnvelope(path, [{ platform }], async () => {
    const p = platformOf(platform);
    const rows = await repo.readyReviewTasks(ctx.db, auth.user.id, p, READY_LIMIT);
    const result = rows.map((r) => ({
      id: r.id,
      se: p,
      se_type: 'reviews',
      date_posted: r.created_at,
      date_completed: r.completed_at,
      tag: r.tag,
      endpoint: path.replace(/tasks_ready$/, `task_get/${r.id}`),
    }));
    return { result, cost: 0 };
  });
}

async function ownTask(
  ctx: AppContext,
  auth: AuthContext,
  platform: ReviewPlatform,
  id: string,
): Promise<repo.ReviewTaskRow> {
  const row = await repo.findReviewTask(ctx.db, id);
  // Another user's task does not exist for the caller.
  if (!row || row.user_id !== auth.user.id || row.platform !== platform)
    throw new TaskError(TASK_STATUS.notFound, `no review task ${id} on ${platform}`);
  return row;
}

/** task_get/{id}: the task's result; the first read takes it off the ready list. */
export async function getReviewTask(
  ctx: AppContext,
  auth: AuthContext,
  platform: string,
  id: string,
  path: string,
): Promise<ProviderEnvelope> {
  let data: unknown = { id };
  const env = await runEnvelope(path, [{ id }], async () => {
    const p = platformOf(platform);
    const row = await ownTask(ctx, auth, p, id);
    data = JSON.parse(row.data);
    if (row.status === 'queued') return { id, result: null, cost: 0, status: TASK_STATUS.taskInQueue };
    if (row.status === 'failed')
      return {
        id,
        result: null,
        cost: 0,
        status: { code: TASK_STATUS.internal.code, message: `Internal Error: ${row.error ?? 'the task failed'}` },
      };
    await repo.markCollected(ctx.db, id, ctx.now().toISOString());
    return { id, result: [JSON.parse(row.result!)], cost: row.cost_micro_usd / 1e6 };
  });
  // The envelope echoes what the task was posted with, as the provider's task_get does.
  env.tasks[0].data = data;
  return env;
}

/** task_callbacks/{id}: every pingback and postback attempt, in order. */
export function reviewTaskCallbacks(
  ctx: AppContext,
  auth: AuthContext,
  platform: string,
  id: string,
  path: string,
): Promise<ProviderEnvelope> {
  return runEnvelope(path, [{ id }], async () => {
    const p = platformOf(platform);
    await ownTask(ctx, auth, p, id);
    const rows = await repo.deliveriesOf(ctx.db, id);
    return {
      id,
      cost: 0,
      result: rows.map((r) => ({
        kind: r.kind,
        url: r.url,
        attempt: r.attempt,
        status_code: r.status_code,
        delivered: r.delivered === 1,
        error: r.error,
        at: r.at,
      })),
    };
  });
}
