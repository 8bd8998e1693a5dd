import { randomUUID } from 'node:crypto';
import { TASK_STATUS } from '../../../contract/beta-seo.js';
import { FilterError } from './filter-compiler.js';

/**
 * The provider envelope (spec 2.1) every SEO endpoint answers with. A request body is a JSON array
 * of task objects; each task runs on its own and a rejected one carries its status_code and message
 * while the HTTP status stays 200 (spec 7.1). The codes are TASK_STATUS (docs/decisions.md).
 */

export const PROVIDER_VERSION = 'v0.1.0-beta';
export const MAX_TASKS = 100;
/**
 * Rows (backlinks, domains, keywords) one request's answer may carry across its tasks: 100 tasks of
 * 1000 rows made a 65 MB answer that took the event loop most of a second to serialise. Once the
 * tasks run so far hold this many, the rest are refused one by one (their status says why) and can
 * be sent in another request; the task that crosses the bound keeps its rows.
 */
export const MAX_ROWS_PER_REQUEST = 5_000;

type Status = { code: number; message: string };

/** A task the caller got wrong (or one that failed): becomes the task's status, never an HTTP error. */
export class TaskError extends Error {
  constructor(
    readonly status: Status,
    readonly detail?: string,
  ) {
    super(detail ? `${status.message.replace(/\.$/, '')}: ${detail}` : status.message);
    this.name = 'TaskError';
  }
}

export interface TaskOutcome {
  result: unknown[] | null;
  cost: number;
  /** Default 20000 Ok. */
  status?: Status;
  /** Default a new UUID; queued tasks keep the id they were stored under. */
  id?: string;
}

export interface ProviderTask {
  id: string;
  status_code: number;
  status_message: string;
  time: string;
  cost: number;
  result_count: number;
  path: string[];
  data: unknown;
  result: unknown[] | null;
}

export interface ProviderEnvelope {
  version: string;
  status_code: number;
  status_message: string;
  time: string;
  cost: number;
  tasks_count: number;
  tasks_error: number;
  tasks: ProviderTask[];
}

/** A task's failure as its outcome; anything but a task or filter error is a server failure. */
export function failedOutcome(err: unknown): TaskOutcome {
  const e = err instanceof FilterError ? new TaskError(TASK_STATUS.invalidFilter, err.message) : err;
  if (!(e instanceof TaskError)) throw err;
  return { result: null, cost: 0, status: { code: e.status.code, message: e.message } };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(4)} sec.`;
const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function pathSegments(path: string): string[] {
  return path.split('?')[0].split('/').filter(Boolean);
}

/** An envelope for a request refused as a whole (not an array, too many tasks): no tasks ran. */
export function refusedEnvelope(status: Status, detail: string, started = performance.now()): ProviderEnvelope {
  return {
    version: PROVIDER_VERSION,
    status_code: status.code,
    status_message: `${status.message.replace(/\.$/, '')}: ${detail}`,
    time: seconds(performance.now() - started),
    cost: 0,
    tasks_count: 0,
    tasks_error: 0,
    tasks: [],
  };
}

/** Rows of a task's result: the items of each result entry (a page of backlinks, of domains), or the entry itself. */
function rowsOf(result: unknown[] | null): number {
  let n = 0;
  for (const r of result ?? [])
    n += Array.isArray((r as { items?: unknown } | null)?.items) ? (r as { items: unknown[] }).items.length : 1;
  return n;
}

/** Runs each task of `body` through `run` and wraps the outcomes in the envelope. */
export async function runEnvelope(
  path: string,
  body: unknown,
  run: (task: Record<string, unknown>) => Promise<TaskOutcome> | TaskOutcome,
): Promise<ProviderEnvelope> {
  const started = performance.now();
  if (!Array.isArray(body) || body.length === 0)
    return refusedEnvelope(
      TASK_STATUS.postDataInvalid,
      'the body must be a non-empty JSON array of task objects',
      started,
    );
  if (body.length > MAX_TASKS)
    return refusedEnvelope(TASK_STATUS.tooManyTasks, `${body.length} tasks were sent`, started);
  const segments = pathSegments(path);
  const tasks: ProviderTask[] = [];
  let rows = 0;
  for (const data of body) {
    const t0 = performance.now();
    let outcome: TaskOutcome;
    try {
      if (!data || typeof data !== 'object' || Array.isArray(data))
        throw new TaskError(TASK_STATUS.postDataInvalid, 'each task must be a JSON object');
      if (rows >= MAX_ROWS_PER_REQUEST)
        throw new TaskError(
          TASK_STATUS.postDataInvalid,
          `this request's earlier tasks already answered ${rows} rows (at most ${MAX_ROWS_PER_REQUEST} in one request): this task did not run; send it in another request`,
        );
      outcome = await run(data as Record<string, unknown>);
    } catch (err) {
      outcome = failedOutcome(err);
    }
    rows += rowsOf(outcome.result);
    const status = outcome.status ?? TASK_STATUS.ok;
    tasks.push({
      id: outcome.id ?? randomUUID(),
      status_code: status.code,
      status_message: status.message,
      time: seconds(performance.now() - t0),
      cost: round(outcome.cost),
      result_count: outcome.result?.length ?? 0,
      path: segments,
      data,
      result: outcome.result,
    });
  }
  const errors = tasks.filter((t) => t.status_code >= 40000).length;
  return {
    version: PROVIDER_VERSION,
    status_code: TASK_STATUS.ok.code,
    status_message: TASK_STATUS.ok.message,
    time: seconds(performance.now() - started),
    cost: round(tasks.reduce((s, t) => s + t.cost, 0)),
    tasks_count: tasks.length,
    tasks_error: errors,
    tasks,
  };
}
