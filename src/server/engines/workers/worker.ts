import { parentPort } from 'node:worker_threads';
import { jobs, type JobName } from './jobs.js';
import type { JobMessage, JobReply } from './pool.js';

/** Entry of a CPU worker thread (built as dist/worker.js): runs one job per message, in order. */
const port = parentPort;
if (!port) throw new Error('worker.js runs inside a worker thread of the facet server');

port.on('message', async (message: JobMessage) => {
  let reply: JobReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const job = jobs[message.name as JobName] as (input: unknown) => Promise<{ value: unknown; transfer?: ArrayBuffer[] }>;
    if (!job) throw new Error(`unknown CPU job ${message.name}`);
    const done = await job(message.input);
    reply = { id: message.id, ok: true, value: done.value };
    transfer = done.transfer ?? [];
  } catch (err) {
    const e = err as Error & { code?: string };
    reply = { id: message.id, ok: false, error: { name: e.name ?? 'Error', message: e.message ?? String(err), ...(typeof e.code === 'string' ? { code: e.code } : {}) } };
  }
  port.postMessage(reply, transfer);
});
