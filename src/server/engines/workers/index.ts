import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CpuPool, type RunOptions } from './pool.js';
import type { JobInput, JobName, JobOutput } from './jobs.js';

/**
 * The process's one pool of CPU workers. Its size leaves a core to the event loop: one worker on two
 * cores, at most four (FACET_CPU_WORKERS overrides it). Besides them, one worker runs urgent jobs
 * only (token counts), so they never wait behind a render (pool.ts).
 */
export function cpuPoolSize(): number {
  const asked = Number(process.env.FACET_CPU_WORKERS);
  if (Number.isInteger(asked) && asked > 0) return asked;
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * The built worker script, next to this module's bundle: dist/worker.js, reached from dist/ or from
 * a code-split chunk in dist/chunks/. Running from the TypeScript sources (unit tests) there is none.
 */
function builtWorkerScript(): URL | null {
  for (const rel of ['./worker.js', '../worker.js']) {
    const url = new URL(rel, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

let script: URL | null | undefined;
let pool: CpuPool | undefined;

/**
 * Runs a CPU-heavy job in the worker pool, started on first use. Without a built worker script (unit
 * tests run the sources, and a worker cannot load .ts) the same job runs in this thread: same code,
 * same result, only not off the event loop.
 */
export async function runCpuJob<K extends JobName>(name: K, input: JobInput<K>, options: RunOptions = {}): Promise<JobOutput<K>> {
  script ??= builtWorkerScript();
  if (!script) {
    options.signal?.throwIfAborted();
    const { jobs } = await import('./jobs.js');
    const done = await (jobs[name] as (i: JobInput<K>) => Promise<{ value: JobOutput<K> }>)(input);
    options.signal?.throwIfAborted();
    return done.value;
  }
  pool ??= new CpuPool(script, cpuPoolSize(), { urgentLane: true });
  return (await pool.run(name, input, options)) as JobOutput<K>;
}

/**
 * Starts the pool's workers in the background (the server does it once it listens): a worker takes
 * a few hundred milliseconds to start, which the first CPU job after start-up otherwise waits for
 * (the first batch scrape of a fresh server ran at 65% of the speed of the next ones).
 */
export function warmCpuPool(): void {
  script ??= builtWorkerScript();
  if (!script) return;
  pool ??= new CpuPool(script, cpuPoolSize(), { urgentLane: true });
  pool.warm();
}

/** Ends the workers (server close); a later job starts a new pool. */
export async function closeCpuPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
