import { TASK_STATUS } from '../../contract/beta-seo.js';
import type { AppContext } from '../context.js';
import { JobFailure } from '../jobs/queue.js';
import { PROVIDER_VERSION, pathSegments, type ProviderEnvelope } from '../providers/beta/envelope.js';
import { reviewsOf, type ReviewPlatform } from '../providers/beta/local/reviews.js';
import * as repo from '../store/beta-reviews.repo.js';
import { sendCallbacks } from './beta-review-callbacks.js';

export const REVIEW_JOB = 'beta-review-task';

interface ReviewJob {
  taskId: string;
  domain: string;
  depth: number;
  sortBy: 'recency' | 'relevance';
  platform: ReviewPlatform;
}

/** The envelope a postback carries: the same as task_get answers for the task. */
function postbackEnvelope(task: repo.ReviewTaskRow): ProviderEnvelope {
  const cost = task.cost_micro_usd / 1e6;
  return {
    version: PROVIDER_VERSION,
    status_code: TASK_STATUS.ok.code,
    status_message: TASK_STATUS.ok.message,
    time: '0.0000 sec.',
    cost,
    tasks_count: 1,
    tasks_error: 0,
    tasks: [
      {
        id: task.id,
        status_code: TASK_STATUS.ok.code,
        status_message: TASK_STATUS.ok.message,
        time: '0.0000 sec.',
        cost,
        result_count: 1,
        path: pathSegments(`/v1/beta/seo/business_data/${task.platform}/reviews/task_get/${task.id}`),
        data: JSON.parse(task.data),
        result: [JSON.parse(task.result!)],
      },
    ],
  };
}

/**
 * A review task's job: gather the reviews (the local provider's, deterministic), store them, then
 * send the callbacks. Run again after a crash, it keeps the stored result and only sends what was
 * not delivered.
 */
export function registerReviewTasks(ctx: AppContext): void {
  ctx.jobs.register<ReviewJob>(
    REVIEW_JOB,
    async (job) => {
      const p = job.payload;
      const before = await repo.findReviewTask(ctx.db, p.taskId);
      if (!before) throw new JobFailure(`review task ${p.taskId} is gone`);
      if (before.status === 'queued') {
        await repo.completeReviewTask(
          ctx.db,
          p.taskId,
          reviewsOf(p.platform, p.domain, p.sortBy, p.depth),
          ctx.now().toISOString(),
        );
        await job.log(`collected reviews of ${p.domain} on ${p.platform}`);
      }
      const task = (await repo.findReviewTask(ctx.db, p.taskId))!;
      await sendCallbacks(ctx, task, postbackEnvelope(task), job.signal);
      return { task_id: p.taskId };
    },
    { maxAttempts: 2, retryDelayMs: 500 },
  );
}
