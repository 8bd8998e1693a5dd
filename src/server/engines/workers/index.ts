import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { currentCaller } from './caller.js';
import { cpuLimitsFromEnv } from './limits.js';
import { CpuPool, type LaneStats, type PoolScripts, type RunOptions } from './pool.js';
import type { JobInput, JobName, JobOutput } from './jobs.js';

export type { LaneName, LaneStats, RunOptions } from './pool.js';
export { onCpuWait } from './pool.js';
export { asCaller } from './caller.js';

/**
 * The built scripts, next to this module's bundle: dist/worker.js and dist/render-child.js, reached
 * from dist/ or from a code-split chunk in dist/chunks/. Running from the TypeScript sources (unit
 * tests) there are none.
 */
function builtScripts(): PoolScripts | null {
  for (const dir of ['./', '../']) {
    const worker = new URL(`${dir}worker.js`, import.meta.url);
    if (worker.protocol !== 'file:' || !existsSync(fileURLToPath(worker))) continue;
    const child = new URL(`${dir}render-child.js`, import.meta.url);
    return { worker, ...(existsSync(fileURLToPath(child)) ? { child } : {}) };
  }
  return null;
}

let scripts: PoolScripts | null | undefined;
let pool: CpuPool | undefined;

function thePool(found: PoolScripts): CpuPool {
  return (pool ??= new CpuPool(found, cpuLimitsFromEnv(), { urgentLane: true }));
}

/**
 * Runs a CPU-heavy job in the worker pool, started on first use; `owner` (the API key or user the
 * job is for; by default the request's caller, caller.ts) keeps one caller's queue of heavy jobs
 * from holding another's. Without a built
 * worker script (unit tests run the sources, and a worker cannot load .ts) the same job runs in this
 * thread: same code, same result, only not off the event loop and without the pool's limits.
 */
export async function runCpuJob<K extends JobName>(
  name: K,
  input: JobInput<K>,
  options: RunOptions = {},
): Promise<JobOutput<K>> {
  scripts ??= builtScripts();
  if (!scripts) {
    options.signal?.throwIfAborted();
    const { jobs } = await import('./jobs.js');
    const done = await (jobs[name] as (i: JobInput<K>) => Promise<{ value: JobOutput<K> }>)(input);
    options.signal?.throwIfAborted();
    return done.value;
  }
  const owner = options.owner ?? currentCaller();
  return (await thePool(scripts).run(
    name,
    input,
    owner === undefined ? options : { ...options, owner },
  )) as JobOutput<K>;
}

/**
 * Starts the pool's worker threads in the background (the server does it once it listens): a worker
 * takes a moment to start, which the first CPU jobs after start-up would otherwise wait for (a fresh
 * server's first batch scrape ran slower than the next ones).
 */
export function warmCpuPool(): void {
  scripts ??= builtScripts();
  if (scripts) thePool(scripts).warm();
}

/** Ends the workers and render children (server close); a later job starts a new pool. */
export async function closeCpuPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}

/** The pool's lanes for /metrics; none before the pool has started (or when jobs run in this thread). */
export function cpuPoolStats(): LaneStats[] {
  return pool?.stats() ?? [];
}
