// bench/tasks: illustration tasks through the durable job queue (HTTP create -> queue -> engine ->
// artifacts -> succeeded) against the same engine called directly in the same run.
//
// One at a time (the figure issue 9 names, target <= 1.2x): a task created while the queue is idle,
// timed from the POST to its `succeeded`, against one engine call with the same prompt and size. The
// two alternate in blocks ordered direct, queue, queue, direct after a warm-up of both, so a machine
// whose load changes during the run weighs on both sides alike; the ratio is of the medians.
// Tasks are created the way the CLI sends them (bench/lib/form-post.mjs: node:http, a multipart body).
// Throughput: BENCH_TASKS tasks created back to back, tasks per second and p50/p99 create -> succeeded,
// against the same number of engine calls one after the other.
//
//   npm run build && node bench/tasks/run.mjs            # 200 tasks, 2 workers, 40 solo blocks
//   BENCH_TASKS=500 BENCH_WORKERS=4 BENCH_SOLO=60 node bench/tasks/run.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer, generateIllustrations } from '../../dist/server.js';
import { median, percentile } from '../lib/stats.mjs';
import { closeForms, postForm } from '../lib/form-post.mjs';

const N = Number(process.env.BENCH_TASKS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const [W, H] = (process.env.BENCH_SIZE ?? '256x192').split('x').map(Number);
const SOLO_BLOCKS = Number(process.env.BENCH_SOLO ?? 40);
const TARGET = 1.2;
const prompt = (i) => `A lighthouse number ${i} over a night ocean with ${i % 7} boats`;

const ms = (v) => `${v.toFixed(1)} ms`;

// Baseline: the engine itself, one call after the other, same prompts and size.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-direct-'));
const direct = [];
const d0 = performance.now();
for (let i = 0; i < N; i++) {
  const t = performance.now();
  await generateIllustrations({ prompt: prompt(i), width: W, height: H, count: 1, keywords: [], outDir: scratch });
  direct.push(performance.now() - t);
}
const directWall = performance.now() - d0;
rmSync(scratch, { recursive: true, force: true });

// Through the platform: multipart POST /tasks, the queue, the engine, metering, artifacts.
// BENCH_STORE=file: a SQLite file in a temporary data dir (what `facet serve` uses), instead of memory.
const dataDir = process.env.BENCH_STORE === 'file' ? mkdtempSync(path.join(os.tmpdir(), 'facet-bench-tasks-')) : null;
const server = await startServer({
  ...(dataDir ? { dataDir } : { memory: true }),
  port: 0,
  logLevel: 'silent',
  workers: WORKERS,
});
const key = server.bootstrap.data.api_key;
const created = new Map();
const latencies = [];
let failed = 0;
// A job can end before its id is read back from the store: its end waits in `early` until then.
const early = new Map();
let allEnded;
const allDone = new Promise((resolve) => (allEnded = resolve));
function ended(id, state, at) {
  if (state === 'succeeded') latencies.push(at - created.get(id));
  else failed++;
  if (latencies.length + failed === N) allEnded();
}
const offBurst = server.ctx.jobs.onChange((e) => {
  if (!['succeeded', 'failed', 'canceled'].includes(e.state)) return;
  if (created.has(e.id)) ended(e.id, e.state, performance.now());
  else early.set(e.id, { state: e.state, at: performance.now() });
});
// The form a client sends for one illustration (the CLI's `tasks create illustration`).
const fields = (i) => ({ kind: 'illustration', prompt: prompt(i), size: `${W}x${H}` });
async function create(i) {
  const res = await postForm(`${server.url}/tasks`, { 'X-API-Key': key }, fields(i));
  if (res.status !== 202) throw new Error(`create answered ${res.status}: ${res.text}`);
  return res.json;
}
const q0 = performance.now();
for (let i = 0; i < N; i++) {
  const t = performance.now();
  const task = await create(i);
  const jobId = (await server.ctx.db.selectFrom('tasks').select('job_id').where('id', '=', task.id).executeTakeFirst())
    .job_id;
  created.set(jobId, t);
  if (early.has(jobId)) ended(jobId, early.get(jobId).state, early.get(jobId).at);
}
await allDone;
offBurst();
const queueWall = performance.now() - q0;

// One at a time: the latency a single task pays for HTTP, the queue, metering and artifacts, next to
// the engine called directly in the same process (its CPU worker pool is the server's).
const soloScratch = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-direct-'));
async function directOnce(i) {
  const t = performance.now();
  await generateIllustrations({ prompt: prompt(i), width: W, height: H, count: 1, keywords: [], outDir: soloScratch });
  return performance.now() - t;
}
// Timed from the POST to the job's end as the queue announces it (or to the 202, if that came
// later). Every end is noted with its time; the task's job id is read from the store after the 202
// (off the clock), and the bench waits for that job's end.
async function queuedOnce(i) {
  const ends = new Map();
  let wanted;
  let found;
  const foundEnd = new Promise((resolve) => (found = resolve));
  const off = server.ctx.jobs.onChange((e) => {
    if (!['succeeded', 'failed', 'canceled'].includes(e.state)) return;
    ends.set(e.id, { at: performance.now(), state: e.state });
    if (e.id === wanted) found();
  });
  const t = performance.now();
  const task = await create(i);
  const answeredAt = performance.now();
  const row = await server.ctx.db.selectFrom('tasks').select('job_id').where('id', '=', task.id).executeTakeFirst();
  wanted = row.job_id;
  if (!ends.has(wanted)) await foundEnd;
  off();
  const end = ends.get(wanted);
  if (end.state !== 'succeeded') failed++;
  return Math.max(end.at, answeredAt) - t;
}
for (let i = 0; i < 10; i++) {
  await directOnce(i);
  await queuedOnce(i);
}
const soloDirect = [];
const solo = [];
for (let b = 0; b < SOLO_BLOCKS; b++) {
  soloDirect.push(await directOnce(2 * b));
  solo.push(await queuedOnce(2 * b));
  solo.push(await queuedOnce(2 * b + 1));
  soloDirect.push(await directOnce(2 * b + 1));
}
rmSync(soloScratch, { recursive: true, force: true });
closeForms();

direct.sort((a, b) => a - b);
latencies.sort((a, b) => a - b);
const directRate = N / (directWall / 1000);
const queueRate = latencies.length / (queueWall / 1000);
console.log(
  `bench/tasks: ${N} illustration tasks of ${W}x${H}, ${WORKERS} worker(s), ${dataDir ? 'SQLite file' : 'in-memory'} store, node ${process.version}, ${os.cpus().length} CPU(s)`,
);
console.log(
  `  engine direct : ${directRate.toFixed(1)} images/s   p50 ${ms(percentile(direct, 50))}   p99 ${ms(percentile(direct, 99))}`,
);
console.log(
  `  through queue : ${queueRate.toFixed(1)} tasks/s    p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}  (create -> succeeded)${failed ? `   FAILED ${failed}` : ''}`,
);
const soloRatio = median(solo) / median(soloDirect);
console.log(`  throughput    : queue/direct ${(queueRate / directRate).toFixed(2)}`);
console.log(
  `one at a time (${solo.length} tasks and ${soloDirect.length} engine calls, blocks direct-queue-queue-direct, after a warm-up):`,
);
console.log(
  `  engine direct : p50 ${ms(median(soloDirect))}   p99 ${ms(percentile(soloDirect, 99))}   (baseline, same run)`,
);
console.log(
  `  through queue : p50 ${ms(median(solo))}   p99 ${ms(percentile(solo, 99))}   (POST /tasks -> succeeded, idle queue)`,
);
console.log(
  `  ratio         : ${soloRatio.toFixed(2)}x the engine called directly (target <= ${TARGET}x: ${soloRatio <= TARGET ? 'met' : 'not met'})`,
);
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
if (failed) process.exitCode = 1;

// Closed after the figures are printed and waited for at most 10 s: an in-process server with the
// CPU pool used here does not always finish closing (a known fault, named in bench/README.md).
await Promise.race([server.close(), new Promise((r) => setTimeout(r, 10_000))]);
