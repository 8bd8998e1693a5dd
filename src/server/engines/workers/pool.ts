import { FairQueue } from './fair-queue.js';
import { describeInput, measureInput } from './input-size.js';
import { queueFull, timeLimitHit, type CpuLimits } from './limits.js';
import { ProcessPool } from './process-pool.js';
import { ThreadPool, type Executor } from './thread-pool.js';
import { WaitWindow } from './waits.js';

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
  /** The lane it waits in or runs on: a job past its slice moves to the heavy lane. */
  lane: Lane;
  queuedAt: number;
}

export type LaneName = 'urgent' | 'general' | 'heavy';

/** Told each job's wait for a worker as it starts (the /metrics histogram). */
export type WaitListener = (lane: LaneName, seconds: number) => void;

interface Lane {
  name: LaneName;
  capacity: number;
  running: number;
  /** Running jobs by owner: on the heavy lane one owner may hold at most `ownerCap` workers. */
  runningBy: Map<string, number>;
  ownerCap: number;
  queue: FairQueue<Job>;
  threads?: ThreadPool;
  /** Jobs stopped by a limit (their worker replaced), by which limit. */
  kills: { time: number; memory: number };
  /** How long its jobs waited for a worker. */
  waits: WaitWindow;
  /** Jobs that left it for the heavy lane past their slice: moved running, or stopped and queued there. */
  yielded: { moved: number; requeued: number };
}

/** One lane as /metrics and /healthz show it. */
export interface LaneStats {
  lane: LaneName;
  capacity: number;
  running: number;
  queued: number;
  kills: { time: number; memory: number };
  wait: ReturnType<WaitWindow['quantiles']>;
  yielded: { moved: number; requeued: number };
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

/** Jobs with no owner given share this one. */
const NO_OWNER = '';

/** A job using no CPU (stuck) is still stopped after this many times its CPU-time limit. */
const WALL_BACKSTOP = 10;
const WALL_BACKSTOP_MIN_MS = 60_000;

const waitListeners = new Set<WaitListener>();

/** Calls `listener` with each CPU job's wait for a worker, in any pool; returns what stops it. */
export function onCpuWait(listener: WaitListener): () => void {
  waitListeners.add(listener);
  return () => waitListeners.delete(listener);
}

/** Stops a job past its slice when the heavy lane has no room for it: it waits there instead. */
const YIELD = Symbol('yield to the heavy lane');

function lane(name: LaneName, capacity: number, ownerCap = Infinity): Lane {
  return {
    name,
    capacity,
    running: 0,
    runningBy: new Map(),
    ownerCap,
    queue: new FairQueue(),
    kills: { time: 0, memory: 0 },
    waits: new WaitWindow(),
    yielded: { moved: 0, requeued: 0 },
  };
}

/**
 * The CPU pool (ARCHITECTURE "The event loop is for I/O"): three lanes, each with a bounded queue
 * taken round-robin between owners. Urgent (one worker: light jobs a request waits on) and general
 * (limits.size workers) give each job a slice of limits.sliceMs; a job still running then moves to
 * the heavy lane (limits.heavySize workers, one owner holding at most half), or, when that lane has
 * no room for it, is stopped and waits there, so one caller's long job never holds the worker the
 * next caller's short one needs (docs/decisions.md "Fair CPU"). Inputs of limits.heavyInputSize or
 * more start on the heavy lane. A job's limit counts its own CPU time (cpu-clock.ts); over it, or
 * over its memory limit, it fails with an error naming its input, and its worker is replaced. The
 * queue lives here, not in piscina's taskQueue: piscina cannot say when a job starts.
 */
export class CpuPool {
  private readonly general: Lane;
  private readonly urgent: Lane | null;
  private readonly heavy: Lane;
  private children: ProcessPool | undefined;
  private closed = false;

  constructor(
    private readonly scripts: PoolScripts,
    private readonly limits: CpuLimits,
    options: { urgentLane?: boolean } = {},
  ) {
    this.general = lane('general', limits.size);
    this.urgent = options.urgentLane ? lane('urgent', 1) : null;
    this.heavy = lane('heavy', limits.heavySize, Math.max(1, Math.floor(limits.heavySize / 2)));
  }

  private get lanes(): Lane[] {
    return [this.urgent, this.general, this.heavy].filter((l): l is Lane => l !== null);
  }

  run(name: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the CPU worker pool is closed'));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const measured = measureInput(input);
    const large = !measured.complete || measured.size >= this.limits.heavyInputSize;
    const lane = large ? this.heavy : options.urgent && this.urgent ? this.urgent : this.general;
    // Moved buffers cannot be sent twice: only a job that never yields (heavy from the start) moves them.
    if (lane !== this.heavy && options.transfer) options = { ...options, transfer: undefined };
    const owner = options.owner ?? NO_OWNER;
    // Full: refused at once, with a Retry-After, rather than holding the request without bound.
    if (lane.queue.size >= this.limits.queueMax)
      return Promise.reject(queueFull(lane.name, this.limits.queueMax, false));
    if (owner !== NO_OWNER && lane.queue.sizeOf(owner) >= this.limits.ownerQueueMax)
      return Promise.reject(queueFull(lane.name, this.limits.ownerQueueMax, true));
    return new Promise((resolve, reject) => {
      const job: Job = { name, input, options, owner, resolve, reject, lane, queuedAt: performance.now() };
      if (options.signal) {
        job.onAbort = () => {
          if (job.lane.queue.remove(owner, job)) this.settle(job, () => job.reject(options.signal!.reason));
        };
        options.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      lane.queue.push(owner, job);
      this.pump(lane);
    });
  }

  /** Starts the worker threads now (idle, unref'd): the first job then finds one loaded. */
  warm(): void {
    if (!this.closed) for (const l of this.lanes) this.threadsOf(l);
  }

  /** Each lane's size, use, queue, waits and limit kills so far. */
  stats(): LaneStats[] {
    return this.lanes.map((l) => ({
      lane: l.name,
      capacity: l.capacity,
      running: l.running,
      queued: l.queue.size,
      kills: { ...l.kills },
      wait: l.waits.quantiles(),
      yielded: { ...l.yielded },
    }));
  }

  /** Ends every worker and child; queued and running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const lane of this.lanes)
      for (const job of lane.queue.drain()) this.settle(job, () => job.reject(new Error('the CPU worker pool closed')));
    await Promise.all([...this.lanes.map((l) => l.threads?.close()), this.children?.close()]);
  }

  /**
   * A lane's own threads, so a light lane always has its workers started. A job moved to the heavy
   * lane keeps its thread, so urgent and general may add as many as the heavy lane holds.
   */
  private threadsOf(lane: Lane): ThreadPool {
    const extra = lane === this.heavy ? 0 : this.heavy.capacity;
    return (lane.threads ??= new ThreadPool(this.scripts.worker, lane.capacity, this.limits.memoryMb, extra));
  }

  private executorFor(job: Job, lane: Lane): Executor {
    if (this.scripts.child && runsNative(job.name, job.input))
      return (this.children ??= new ProcessPool(this.scripts.child, this.limits.memoryMb));
    return this.threadsOf(lane);
  }

  private hasRoom(lane: Lane, owner: string): boolean {
    return lane.running < lane.capacity && (lane.runningBy.get(owner) ?? 0) < lane.ownerCap;
  }

  private runningOf(owner: string): number {
    return this.lanes.reduce((n, l) => n + (l.runningBy.get(owner) ?? 0), 0);
  }

  private hold(lane: Lane, job: Job, by: 1 | -1): void {
    lane.running += by;
    const n = (lane.runningBy.get(job.owner) ?? 0) + by;
    if (n > 0) lane.runningBy.set(job.owner, n);
    else lane.runningBy.delete(job.owner);
  }

  private pump(lane: Lane): void {
    while (!this.closed && lane.running < lane.capacity) {
      // Callers with nothing running anywhere first: one whose long job holds the heavy lane waits
      // behind one who has had no turn yet.
      const job =
        lane.queue.shift((owner) => this.hasRoom(lane, owner) && this.runningOf(owner) === 0) ??
        lane.queue.shift((owner) => this.hasRoom(lane, owner));
      if (!job) return;
      this.hold(lane, job, 1);
      const waited = performance.now() - job.queuedAt;
      lane.waits.add(waited);
      for (const listener of waitListeners) listener(lane.name, waited / 1000);
      void this.start(job);
    }
  }

  /** Runs a job that has its worker: its limits start now. */
  private async start(job: Job): Promise<void> {
    const name = job.name;
    const limitMs = this.limits.timeoutMs[name] ?? this.limits.timeoutMs.default;
    // One signal for the executor: the caller's abort, the limit or the slice, whichever comes first.
    const stop = new AbortController();
    const caller = job.options.signal;
    const onCaller = () => stop.abort(caller!.reason);
    caller?.addEventListener('abort', onCaller, { once: true });
    const started = performance.now();
    let cpuUsed: () => number | null = () => 0;
    const check = () => {
      const wall = performance.now() - started;
      const cpu = cpuUsed();
      if (cpu === null ? wall >= limitMs : cpu >= limitMs)
        stop.abort(timeLimitHit(name, limitMs, describeInput(name, job.input), cpu === null ? wall : undefined));
      else if (wall >= Math.max(limitMs * WALL_BACKSTOP, WALL_BACKSTOP_MIN_MS))
        stop.abort(timeLimitHit(name, limitMs, describeInput(name, job.input), wall));
      // The slice counts CPU time too: a light job slowed by a busy machine is not stopped for it.
      else if (job.lane !== this.heavy && (cpu ?? wall) >= this.limits.sliceMs) this.yieldLane(job, stop);
    };
    // Often enough to catch a short limit or slice, rarely enough to cost nothing (a /proc read).
    const poll = setInterval(check, Math.max(5, Math.min(100, limitMs / 4, this.limits.sliceMs / 4)));
    try {
      const value = await this.executorFor(job, job.lane).run(name, job.input, {
        transfer: job.options.transfer,
        signal: stop.signal,
        onStart: (used) => (cpuUsed = used),
      });
      this.settle(job, () => job.resolve(value));
    } catch (err) {
      // Stopped by the caller, the limit or the slice: the reason says which, whatever the worker threw.
      const reason: unknown = stop.signal.aborted ? stop.signal.reason : err;
      if (reason === YIELD) return this.requeue(job);
      const code = (reason as { code?: string } | null)?.code;
      if (code === 'CPU_TIME_LIMIT_EXCEEDED') job.lane.kills.time++;
      else if (code === 'CPU_MEMORY_LIMIT_EXCEEDED') job.lane.kills.memory++;
      this.settle(job, () => job.reject(reason));
    } finally {
      clearInterval(poll);
      caller?.removeEventListener('abort', onCaller);
      if (stop.signal.reason !== YIELD) {
        this.hold(job.lane, job, -1);
        this.pump(job.lane);
      }
    }
  }

  /** A job past its slice: it keeps running on the heavy lane if that has room for its owner, else it stops and waits there. */
  private yieldLane(job: Job, stop: AbortController): void {
    const from = job.lane;
    if (this.hasRoom(this.heavy, job.owner)) {
      this.hold(from, job, -1);
      this.hold(this.heavy, job, 1);
      job.lane = this.heavy;
      from.yielded.moved++;
      this.pump(from);
    } else {
      from.yielded.requeued++;
      stop.abort(YIELD);
    }
  }

  /** A job stopped at its slice: its worker is free for the next in its lane; it starts again, from the beginning, on the heavy lane. */
  private requeue(job: Job): void {
    const from = job.lane;
    this.hold(from, job, -1);
    job.lane = this.heavy;
    job.queuedAt = performance.now();
    this.heavy.queue.push(job.owner, job);
    this.pump(from);
    this.pump(this.heavy);
  }

  private settle(job: Job, finish: () => void): void {
    if (job.onAbort) job.options.signal!.removeEventListener('abort', job.onAbort);
    finish();
  }
}
