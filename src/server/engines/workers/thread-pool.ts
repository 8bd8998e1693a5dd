import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { JobTask } from './worker.js';
import { JobClock } from './cpu-clock.js';
import { inputNotPassable, memoryLimitHit } from './limits.js';

export interface ExecutorOptions {
  transfer?: ArrayBuffer[];
  signal: AbortSignal;
  /** Told, as the job is handed over, how to read the CPU milliseconds it has used (null: cannot). */
  onStart?: (cpuUsed: () => number | null) => void;
}

/** What a lane hands a job to: worker threads (piscina) or render child processes (process-pool.ts). */
export interface Executor {
  run(name: string, input: unknown, options: ExecutorOptions): Promise<unknown>;
  close(): Promise<void>;
}

/** A job's own failure, as the worker sends it (worker.ts): rebuilt as an Error with its code. */
export function jobError(e: { name?: string; message?: string; code?: string }): Error {
  return Object.assign(
    new Error(e.message ?? 'the CPU job failed'),
    { name: e.name ?? 'Error' },
    typeof e.code === 'string' ? { code: e.code } : {},
  );
}

/**
 * Worker threads through piscina: it starts, replaces and ends them, and passes tasks and moved
 * buffers. Jobs reach it only when the lane has a free worker (pool.ts keeps the queue), so
 * piscina's own queue never holds more than a job a worker. An abort ends the job's worker at
 * once, a worker over its heap limit dies; either way piscina starts a new one for the next job.
 */
export class ThreadPool implements Executor {
  private readonly piscina: Piscina;

  constructor(
    script: URL,
    threads: number,
    private readonly memoryMb: number,
    /** Threads it may add while jobs it started have moved to the heavy lane (pool.ts), ended after a minute idle. */
    extra = 0,
  ) {
    this.piscina = new Piscina({
      filename: fileURLToPath(script),
      // All started now (the pool is made when the server starts listening, or on the first job), and
      // a dead one replaced at once; idle ones are unref'd, so they never keep a process alive.
      // One spare started beside a light lane's own: a job moved to the heavy lane keeps its thread,
      // and the next job then finds one ready instead of waiting for a new thread to start.
      minThreads: threads + Math.min(extra, 1),
      maxThreads: threads + extra,
      idleTimeout: extra > 0 ? 60_000 : Infinity,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
      // piscina loads the script with require() first, which Node 20 allows for ES modules; a worker
      // ended while loading that way takes the whole process down (a V8 fatal error, seen at close).
      // Refused, require() falls back to import(), which ends cleanly.
      execArgv: [...process.execArgv, '--no-experimental-require-module'],
    });
    // A worker that fails with no task running has nothing to fail but would throw here unheard.
    this.piscina.on('error', () => {});
  }

  async run(name: string, input: unknown, options: ExecutorOptions): Promise<unknown> {
    const clock = new JobClock();
    options.onStart?.(() => clock.usedMs());
    const task: JobTask = { name, input, clock: clock.shared };
    try {
      return await this.piscina.run(task, { transferList: options.transfer, signal: options.signal });
    } catch (err) {
      // Aborted: the lane knows why (time limit or caller) and says so.
      if (options.signal.aborted) throw err;
      if (err instanceof Error) {
        if ((err as Error & { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
          throw memoryLimitHit(name, this.memoryMb);
        // postMessage refused the input (too deep for the serializer, or not cloneable): nothing ran.
        if (err instanceof RangeError || err.name === 'DataCloneError') throw inputNotPassable(name, err);
        throw err;
      }
      throw jobError(err as { name?: string; message?: string; code?: string });
    }
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
