import { FairQueue } from './fair-queue.js';
import { queueFull, timeLimitHit, type CpuLimits } from './limits.js';
import { ProcessPool } from './process-pool.js';
import { ThreadPool, type Executor } from './thread-pool.js';

export interface RunOptions {
  /** Buffers moved to the worker instead of copied (worker threads only; a render child gets a copy). */
  transfer?: ArrayBuffer[];
  /** Aborting drops a queued job, and stops a running one by ending its worker. */
  signal?: AbortSignal;
  /**
   * Light jobs a request waits on (token counts, a mindmap's layout, a small render): they run on a
   * lane of their own, which heavy jobs (documents, decks, big renders) never hold, so one key's
   * heavy work never holds another key's light work.
   */
  urgent?: boolean;
  /** Who the job is for (an API key or user id): waiting jobs are taken round-robin between owners. */
  owner?: string;
}

interface Job {
  name: string;
  input: unknown;
  options: RunOptions;
  owner: string;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  onAbort?: () => void;
}

interface Lane {
  name: 'general' | 'urgent';
  capacity: number;
  running: number;
  queue: FairQueue<Job>;
  threads?: ThreadPool;
  /** Jobs stopped by a limit (their worker replaced), by which limit. */
  kills: { time: number; memory: number };
}

/** One lane as /metrics shows it. */
export interface LaneStats {
  lane: 'general' | 'urgent';
  capacity: number;
  running: number;
  queued: number;
  kills: { time: number; memory: number };
}

export interface PoolScripts {
  /** The worker thread entry (dist/worker.js). */
  worker: URL;
  /** The render child entry (dist/render-child.js); without it native jobs run in worker threads. */
  child?: URL;
}

/** Jobs that call native code able to abort its process (resvg), run in a child process. */
export function runsNative(name: string, input: unknown): boolean {
  return name === 'render-png' || (name === 'render-mindmap' && (input as { png?: boolean } | null)?.png === true);
}

const noKills = () => ({ time: 0, memory: 0 });

/** Jobs with no owner given share this one. */
const NO_OWNER = '';

/**
 * The CPU pool (ARCHITECTURE "The event loop is for I/O"): two lanes, general (limits.size
 * workers) and urgent (one, for token counts), each with a bounded queue taken round-robin
 * between owners. A job starts only when its lane has a free worker, and from then on has its time
 * limit; over it, or over its memory limit, it fails with a clear error and its worker (thread or
 * render child) is replaced. The queue lives here, not in piscina's taskQueue: piscina sends jobs
 * with an abort signal (every one here has its time limit's) around its taskQueue, and cannot say
 * when a job starts, which is when its time limit must.
 */
export class CpuPool {
  private readonly general: Lane;
  private readonly urgent: Lane | null;
  private children: ProcessPool | undefined;
  private closed = false;

  constructor(
    private readonly scripts: PoolScripts,
    private readonly limits: CpuLimits,
    options: { urgentLane?: boolean } = {},
  ) {
    this.general = { name: 'general', capacity: limits.size, running: 0, queue: new FairQueue(), kills: noKills() };
    this.urgent = options.urgentLane
      ? { name: 'urgent', capacity: 1, running: 0, queue: new FairQueue(), kills: noKills() }
      : null;
  }

  run(name: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the CPU worker pool is closed'));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const lane = options.urgent && this.urgent ? this.urgent : this.general;
    const owner = options.owner ?? NO_OWNER;
    // Full: refused at once, with a Retry-After, rather than holding the request without bound.
    if (lane.queue.size >= this.limits.queueMax)
      return Promise.reject(queueFull(lane.name, this.limits.queueMax, false));
    if (owner !== NO_OWNER && lane.queue.sizeOf(owner) >= this.limits.ownerQueueMax)
      return Promise.reject(queueFull(lane.name, this.limits.ownerQueueMax, true));
    return new Promise((resolve, reject) => {
      const job: Job = { name, input, options, owner, resolve, reject };
      if (options.signal) {
        job.onAbort = () => {
          if (lane.queue.remove(owner, job)) this.settle(job, () => job.reject(options.signal!.reason));
        };
        options.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      lane.queue.push(owner, job);
      this.pump(lane);
    });
  }

  /** Starts the worker threads now (idle, unref'd): the first job then finds one loaded. */
  warm(): void {
    if (this.closed) return;
    this.threadsOf(this.general);
    if (this.urgent) this.threadsOf(this.urgent);
  }

  /** Each lane's size, use, queue and limit kills so far. */
  stats(): LaneStats[] {
    return [this.general, this.urgent]
      .filter((l): l is Lane => l !== null)
      .map((l) => ({
        lane: l.name,
        capacity: l.capacity,
        running: l.running,
        queued: l.queue.size,
        kills: { ...l.kills },
      }));
  }

  /** Ends every worker and child; queued and running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const lane of [this.general, this.urgent]) {
      if (!lane) continue;
      for (const job of lane.queue.drain()) this.settle(job, () => job.reject(new Error('the CPU worker pool closed')));
    }
    await Promise.all([this.general.threads?.close(), this.urgent?.threads?.close(), this.children?.close()]);
  }

  private threadsOf(lane: Lane): ThreadPool {
    return (lane.threads ??= new ThreadPool(this.scripts.worker, lane.capacity, this.limits.memoryMb));
  }

  private executorFor(lane: Lane, job: Job): Executor {
    if (this.scripts.child && runsNative(job.name, job.input))
      return (this.children ??= new ProcessPool(this.scripts.child, this.limits.memoryMb));
    return this.threadsOf(lane);
  }

  private pump(lane: Lane): void {
    while (!this.closed && lane.running < lane.capacity) {
      const job = lane.queue.shift();
      if (!job) return;
      lane.running++;
      void this.start(lane, job).finally(() => {
        lane.running--;
        this.pump(lane);
      });
    }
  }

  /** Runs a job that has its worker: its time limit starts now. */
  private async start(lane: Lane, job: Job): Promise<void> {
    const limitMs = this.limits.timeoutMs[job.name] ?? this.limits.timeoutMs.default;
    // One signal for the executor: the caller's abort or the time limit, whichever comes first.
    const stop = new AbortController();
    const caller = job.options.signal;
    const onCaller = () => stop.abort(caller!.reason);
    caller?.addEventListener('abort', onCaller, { once: true });
    const timeout = setTimeout(() => stop.abort(timeLimitHit(job.name, limitMs)), limitMs);
    try {
      const value = await this.executorFor(lane, job).run(job.name, job.input, {
        transfer: job.options.transfer,
        signal: stop.signal,
      });
      this.settle(job, () => job.resolve(value));
    } catch (err) {
      // Stopped by the caller or the time limit: the reason says which, whatever the worker threw.
      const reason: unknown = stop.signal.aborted ? stop.signal.reason : err;
      const code = (reason as { code?: string } | null)?.code;
      if (code === 'CPU_TIME_LIMIT_EXCEEDED') lane.kills.time++;
      else if (code === 'CPU_MEMORY_LIMIT_EXCEEDED') lane.kills.memory++;
      this.settle(job, () => job.reject(reason));
    } finally {
      clearTimeout(timeout);
      caller?.removeEventListener('abort', onCaller);
    }
  }

  private settle(job: Job, finish: () => void): void {
    if (job.onAbort) job.options.signal!.removeEventListener('abort', job.onAbort);
    finish();
  }
}
