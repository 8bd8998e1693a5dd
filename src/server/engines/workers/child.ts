import { runJob, type JobFailure, type JobTask } from './worker.js';

/** What the pool sends a render child for one job, and what comes back. */
export interface ChildRequest extends JobTask {
  id: number;
}
export type ChildReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: JobFailure };

/**
 * Entry of a render child process (built as dist/render-child.js): jobs that call native code
 * (resvg) run here, one at a time, because a native abort ends the whole process it happens in,
 * which in a worker thread is the server. Here it ends only this child (process-pool.ts).
 */
const send = process.send?.bind(process);
if (!send) throw new Error('render-child.js runs as a child process of the facet server');

// Tests only: a job whose input contains this marker aborts the child, as a native panic does.
const ABORT_MARKER = process.env.FACET_TEST_RENDER_CHILD_ABORT;

process.on('message', async (request: ChildRequest) => {
  if (ABORT_MARKER && JSON.stringify(request.input).includes(ABORT_MARKER)) process.abort();
  let reply: ChildReply;
  try {
    reply = { id: request.id, ok: true, value: (await runJob(request)).value };
  } catch (err) {
    reply = { id: request.id, ok: false, error: err as JobFailure };
  }
  try {
    send(reply);
  } catch (err) {
    // The answer could not be serialised: the job fails instead of the child.
    send({
      id: request.id,
      ok: false,
      error: { name: 'Error', message: `the job's answer could not be sent back: ${(err as Error).message}` },
    });
  }
});

// The server went away: nothing more will come.
process.on('disconnect', () => process.exit(0));
