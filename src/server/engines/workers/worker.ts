import { JobClock } from './cpu-clock.js';
import { jobs, type JobName } from './jobs.js';

/** What the pool hands a worker for one job. */
export interface JobTask {
  name: string;
  input: unknown;
  /** Worker threads only: where the job's thread says who it is, for the pool to read its CPU time. */
  clock?: Int32Array;
}

/** A job's failure as it crosses back to the pool: plain data, so its code survives the copy. */
export interface JobFailure {
  name: string;
  message: string;
  code?: string;
}

type Job = (input: unknown) => Promise<{ value: unknown; transfer?: ArrayBuffer[] }>;

/** Runs one job by name; its failure becomes a JobFailure. Shared by the worker thread and the render child. */
export async function runJob(task: JobTask): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  try {
    // Looked up as plain functions (no job reads `this`), and only the table's own names.
    const table = jobs as Record<JobName, Job>;
    const job = Object.hasOwn(table, task.name) ? table[task.name as JobName] : undefined;
    if (!job) throw new Error(`unknown CPU job ${task.name}`);
    JobClock.started(task.clock);
    return await job(task.input);
  } catch (err) {
    const e = err as Error & { code?: unknown };
    const failure: JobFailure = {
      name: e?.name ?? 'Error',
      message: e?.message ?? String(err),
      ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    };
    // A plain object crosses the worker boundary whole; the pool turns it back into an Error.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw failure;
  }
}

/**
 * Entry of a CPU worker thread (built as dist/worker.js), run by piscina: one job per call. The
 * answer's own buffers are moved, not copied, back to the pool (piscina's move, loaded only then,
 * so a worker starts without loading any package).
 */
export default async function runTask(task: JobTask): Promise<unknown> {
  const done = await runJob(task);
  if (!done.transfer?.length) return done.value;
  const { move, transferableSymbol, valueSymbol } = await import('piscina');
  return move({ [transferableSymbol]: done.transfer, [valueSymbol]: done.value } as unknown as Parameters<
    typeof move
  >[0]);
}
