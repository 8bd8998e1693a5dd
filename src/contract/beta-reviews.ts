import { z } from 'zod';
import { defineRoute } from './route.js';
import { BetaErrorBody } from './errors.js';
import { ProviderEnvelope } from './envelopes.js';
import { taskBody } from './beta-bounds.js';

/**
 * Review tasks (spec 4.9, 6): task_post queues tasks in the job queue; the spec leaves out how
 * results are collected, so the local platform follows the provider's style (docs/decisions.md):
 * tasks_ready lists completed tasks not yet collected, task_get/{id} returns one (and collects it),
 * task_callbacks/{id} shows the pingback/postback delivery log. Unknown platforms and ids are task
 * errors in the envelope (40401, 40400), HTTP 200, like every other provider outcome.
 */

export const REVIEW_LIMITS = { maxDepth: 200, defaultDepth: 20 } as const;
/** Callback attempts per URL, and the first wait between them (doubling). */
export const CALLBACK_RETRY = { attempts: 4, firstDelayMs: 500 } as const;

const Platform = z.object({ platform: z.string().describe('google, trustpilot or tripadvisor') });
const PlatformAndId = Platform.extend({ id: z.string() });
const errors = { 400: BetaErrorBody, 401: BetaErrorBody, 403: BetaErrorBody } as const;
const base = '/v1/beta/seo/business_data/{platform}/reviews';

export const reviewTaskPost = defineRoute({
  id: 'beta.seo.reviews.task-post',
  method: 'POST',
  path: `${base}/task_post`,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary:
    'Queue review tasks: domain, depth (max 200), sort_by, priority, pingback_url, postback_url ($id, $tag), tag',
  params: Platform,
  body: taskBody('JSON array of task objects (at most 100)'),
  responses: { 200: ProviderEnvelope, ...errors },
});

export const reviewTasksReady = defineRoute({
  id: 'beta.seo.reviews.tasks-ready',
  method: 'GET',
  path: `${base}/tasks_ready`,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: "Completed review tasks of the caller not yet collected with task_get (the local platform's path)",
  params: Platform,
  responses: { 200: ProviderEnvelope, ...errors },
});

export const reviewTaskGet = defineRoute({
  id: 'beta.seo.reviews.task-get',
  method: 'GET',
  path: `${base}/task_get/{id}`,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: 'The result of one review task; reading it takes the task off the ready list',
  params: PlatformAndId,
  responses: { 200: ProviderEnvelope, ...errors },
});

export const reviewTaskCallbacks = defineRoute({
  id: 'beta.seo.reviews.task-callbacks',
  method: 'GET',
  path: `${base}/task_callbacks/{id}`,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: 'Every pingback and postback attempt of one review task',
  params: PlatformAndId,
  responses: { 200: ProviderEnvelope, ...errors },
});

export const betaReviewRoutes = [reviewTaskPost, reviewTasksReady, reviewTaskGet, reviewTaskCallbacks];
