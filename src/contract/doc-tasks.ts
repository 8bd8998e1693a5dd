import { z } from 'zod';
import { defineRoute } from './route.js';
import { V2ErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';

/**
 * Spec 3: the states of a slide or landing-page task. All but RUNNING end polling; the last four
 * carry error_message. What leads to each is in docs/decisions.md ("Document tasks").
 */
export const DOC_TASK_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'PENDING', 'EXPIRED', 'CANCELED'] as const;
export type DocTaskStatus = (typeof DOC_TASK_STATUSES)[number];
export const TERMINAL_DOC_TASK_STATUSES: ReadonlySet<string> = new Set([
  'COMPLETED',
  'FAILED',
  'PENDING',
  'EXPIRED',
  'CANCELED',
]);

/** Spec rule 2: a status not listed may appear later; clients treat it as non-terminal. */
export const isTerminalDocTaskStatus = (status: string): boolean => TERMINAL_DOC_TASK_STATUSES.has(status);

export const TaskParams = z.object({ task_id: z.string().min(1).max(100) });

/** GET /v2/tasks/{task_id}/status: data.status (a string: later statuses may appear). */
export const TaskStatusData = z.object({ status: z.string() });

/** Spec 2.6, the historical record of one slide or landing-page task. */
export const TaskHistorical = z.object({
  task_id: z.string(),
  task_status: z.string(),
  ppt_biz_id: z.string(),
  ppt_url: z.string(),
  error_message: z.string().optional(),
  ai_page_html: z.string().optional(),
  live_doc_short_id: z.string().optional(),
  live_doc_url: z.string().optional(),
  /** Local additions: the task's kind and times, for people reading the record. */
  kind: z.enum(['ppt', 'landing_page']).optional(),
  created_at: z.string().optional(),
  finished_at: z.string().nullable().optional(),
  /**
   * A completed deck: the content slides asked for (`ppt_config.slide_count`) and made, and why
   * fewer were made when they were (the LiveDoc's text covers fewer topics).
   */
  slides_requested: z.number().int().optional(),
  content_slides: z.number().int().optional(),
  note: z.string().optional(),
});
export type TaskHistorical = z.infer<typeof TaskHistorical>;

const errors = {
  400: V2ErrorBody,
  401: V2ErrorBody,
  403: V2ErrorBody,
  404: V2ErrorBody,
  409: V2ErrorBody,
  500: V2ErrorBody,
  502: V2ErrorBody,
} as const;
const base = { auth: 'bearer-key', family: 'v2', tag: 'tasks', params: TaskParams } as const;

export const getTaskStatus = defineRoute({
  ...base,
  id: 'tasks.v2.status',
  method: 'GET',
  path: '/v2/tasks/{task_id}/status',
  summary: 'The status of a slide or landing-page task',
  responses: { 200: v2Envelope(TaskStatusData), ...errors },
});

export const getTaskHistorical = defineRoute({
  ...base,
  id: 'tasks.v2.historical',
  method: 'GET',
  path: '/v2/tasks/{task_id}/historical',
  summary: 'The historical record of a slide or landing-page task (spec 2.6)',
  responses: { 200: v2Envelope(TaskHistorical), ...errors },
});

export const cancelTask = defineRoute({
  ...base,
  id: 'tasks.v2.cancel',
  method: 'POST',
  path: '/v2/tasks/{task_id}/cancel',
  summary: 'Cancel a running slide or landing-page task (local addition); an ended task is returned as it is',
  responses: { 200: v2Envelope(TaskHistorical), ...errors },
});

export const retryTask = defineRoute({
  ...base,
  id: 'tasks.v2.retry',
  method: 'POST',
  path: '/v2/tasks/{task_id}/retry',
  summary: 'Run a PENDING task again (local addition); 409 for a task in any other state',
  responses: { 200: v2Envelope(TaskHistorical), ...errors },
});

export const docTaskRoutes = [getTaskStatus, getTaskHistorical, cancelTask, retryTask];
