import { HttpError } from '../errors.js';

/**
 * Spec 7.2: reading a task's status or history fails with PPT_TASK_QUERY_FAILED (502) when
 * something below the API fails (the store, the job queue); the API's own answers (404 for another
 * user's task, 409) pass through unchanged.
 */
export async function asQueryFailure<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError('PPT_TASK_QUERY_FAILED', `the task could not be read: ${(err as Error).message}`);
  }
}
