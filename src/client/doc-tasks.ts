import { cancelTask, getTaskHistorical, getTaskStatus, retryTask } from '../contract/doc-tasks.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

/** Slide and landing-page tasks (spec 2.6, 3): one set of endpoints for both kinds. */
export const docTasksClient = (t: Transport) => ({
  status: (taskId: string, options: { signal?: AbortSignal } = {}) =>
    callRoute(t, getTaskStatus, { params: { task_id: taskId }, signal: options.signal }),
  historical: (taskId: string, options: { signal?: AbortSignal } = {}) =>
    callRoute(t, getTaskHistorical, { params: { task_id: taskId }, signal: options.signal }),
  cancel: (taskId: string) => callRoute(t, cancelTask, { params: { task_id: taskId } }),
  retry: (taskId: string) => callRoute(t, retryTask, { params: { task_id: taskId } }),
});
