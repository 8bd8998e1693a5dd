// bench/tasks: N illustration tasks through the durable job queue (HTTP create -> queue -> engine ->
// artifacts -> succeeded) against the same engine called directly in the same run. Prints tasks per
// second and p50/p99 from create to succeeded, and the queue's overhead as ratios.
//
//   npm run build && node bench/tasks/run.mjs            # 200 tasks, 2 workers
//   BENCH_TASKS=500 BENCH_WORKERS=4 node bench/tasks/run.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer, generateIllustrations } from '../../dist/server.js';
import { percentile } from '../lib/stats.mjs';

const N = Number(process.env.BENCH_TASKS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const [W, H] = (process.env.BENCH_SIZE ?? '256x192').split('x').map(Number);
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
const server = await startServer({ memory: true, port: 0, logLevel: 'silent', workers: WORKERS });
const key = server.bootstrap.data.api_key;
const created = new Map();
const latencies = [];
let failed = 0;
const allDone = new Promise((resolve) => {
  server.ctx.jobs.onChange((e) => {
    if (!['succeeded', 'failed', 'canceled'].includes(e.state) || !created.has(e.id)) return;
    if (e.state === 'succeeded') latencies.push(performance.now() - created.get(e.id));
    else failed++;
    if (latencies.length + failed === N) resolve();
  });
});
const q0 = performance.now();
for (let i = 0; i < N; i++) {
  const form = new FormData();
  form.append('kind', 'illustration');
  form.append('prompt', prompt(i));
  form.append('size', `${W}x${H}`);
  const t = performance.now();
  const res = await fetch(`${server.url}/tasks`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
  if (res.status !== 202) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  const task = await res.json();
  const jobId = (await server.ctx.db.selectFrom('tasks').select('job_id').where('id', '=', task.id).executeTakeFirst()).job_id;
  created.set(jobId, t);
}
await allDone;
const queueWall = performance.now() - q0;

// One at a time: the latency a single task pays for HTTP, the queue, metering and artifacts.
const SOLO = Math.min(N, 30);
const solo = [];
for (let i = 0; i < SOLO; i++) {
  const form = new FormData();
  form.append('kind', 'illustration');
  form.append('prompt', prompt(i));
  form.append('size', `${W}x${H}`);
  const t = performance.now();
  const task = await (await fetch(`${server.url}/tasks`, { method: 'POST', headers: { 'X-API-Key': key }, body: form })).json();
  const jobId = (await server.ctx.db.selectFrom('tasks').select('job_id').where('id', '=', task.id).executeTakeFirst()).job_id;
  const end = await server.ctx.jobs.waitForEnd(jobId, 30_000);
  if (end.state !== 'succeeded') failed++;
  solo.push(performance.now() - t);
}
await server.close();
solo.sort((a, b) => a - b);

direct.sort((a, b) => a - b);
latencies.sort((a, b) => a - b);
const directRate = N / (directWall / 1000);
const queueRate = latencies.length / (queueWall / 1000);
console.log(`bench/tasks: ${N} illustration tasks of ${W}x${H}, ${WORKERS} worker(s), node ${process.version}, ${os.cpus().length} CPU(s)`);
console.log(`  engine direct : ${directRate.toFixed(1)} images/s   p50 ${ms(percentile(direct, 50))}   p99 ${ms(percentile(direct, 99))}`);
console.log(`  through queue : ${queueRate.toFixed(1)} tasks/s    p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}  (create -> succeeded)${failed ? `   FAILED ${failed}` : ''}`);
console.log(`  one at a time : p50 ${ms(percentile(solo, 50))}   p99 ${ms(percentile(solo, 99))}  (${SOLO} tasks, create -> succeeded with an idle queue)`);
console.log(`  ratio         : single-task latency queue/direct ${(percentile(solo, 50) / percentile(direct, 50)).toFixed(2)}    throughput queue/direct ${(queueRate / directRate).toFixed(2)}`);
if (failed) process.exitCode = 1;
