import { Worker } from 'node:worker_threads';

/** What a worker posts back for one job. */
export type JobReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string; code?: string } };

/** What the pool posts to a worker. */
export interface JobMessage {
  id: number;
  name: string;
  input: unknown;
}

export interface RunOptions {
  /** Buffers moved to the worker instead of copied. */
  transfer?: ArrayBuffer[];
  /** Aborting drops a queued job, and stops a running one by ending its worker. */
  signal?: AbortSignal;
  /**
   * Short jobs a request waits on (token counts) go ahead of long ones (renders, documents), and
   * may run on the pool's lane for them, which long jobs never hold.
   */
  urgent?: boolean;
}

interface Job {
  message: JobMessage;
  transfer: ArrayBuffer[];
  signal?: AbortSignal;
  urgent: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** The lane for urgent jobs: a long job is never started on it. */
  urgentOnly: boolean;
}

/**
 * A fixed number of worker threads for CPU-heavy jobs (ARCHITECTURE "The event loop is for I/O"),
 * started on first use. Each runs one job at a time; the rest wait in order. Idle workers are unref'd
 * so they never keep a process alive; a busy one is ref'd so its job's promise is kept. A worker that
 * dies fails only the job it held, and a new one takes its place for the next job.
 *
 * With `urgentLane`, one more worker takes urgent jobs only: a token count a request waits on (or
 * the one an illustration is metered with) runs beside a render instead of behind it, which on a
 * busy pool could be most of a second. It is an extra thread, not an extra share of the CPU: it
 * works only while urgent jobs are waiting.
 */
export class CpuPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly script: URL,
    readonly size: number,
    private readonly options: { urgentLane?: boolean } = {},
  ) {}

  run(name: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the CPU worker pool is closed'));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise((resolve, reject) => {
      const job: Job = { message: { id: this.nextId++, name, input }, transfer: options.transfer ?? [], signal: options.signal, urgent: options.urgent === true, resolve, reject };
      if (job.signal) {
        job.onAbort = () => this.abort(job);
        job.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      if (options.urgent) {
        const firstSlow = this.queue.findIndex((j) => !j.urgent);
        this.queue.splice(firstSlow < 0 ? this.queue.length : firstSlow, 0, job);
      } else {
        this.queue.push(job);
      }
      this.dispatch();
    });
  }

  /** Starts the workers not yet running, idle (unref'd): the first job then finds one loaded. */
  warm(): void {
    while (!this.closed && this.general() < this.size) this.spawn(false);
    if (!this.closed && this.options.urgentLane && !this.hasLane()) this.spawn(true);
  }

  /** Ends every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(new Error('the CPU worker pool closed')));
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) if (slot.job) this.settle(slot.job, () => slot.job!.reject(new Error('the CPU worker pool closed')));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private general(): number {
    let n = 0;
    for (const s of this.slots) if (!s.urgentOnly) n++;
    return n;
  }

  private hasLane(): boolean {
    for (const s of this.slots) if (s.urgentOnly) return true;
    return false;
  }

  /**
   * A worker for the job, started if need be: an urgent job takes the urgent lane, else any free
   * worker; a long one only a general worker. Urgent jobs wait ahead of long ones, so when the
   * first in line finds none, none behind it would.
   */
  private slotFor(urgent: boolean): Slot | undefined {
    const free = [...this.slots].filter((s) => s.job === null);
    if (urgent) {
      const lane = free.find((s) => s.urgentOnly);
      if (lane) return lane;
      if (this.options.urgentLane && !this.hasLane()) return this.spawn(true);
    }
    const worker = free.find((s) => !s.urgentOnly);
    if (worker) return worker;
    return this.general() < this.size ? this.spawn(false) : undefined;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slotFor(this.queue[0].urgent);
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(job.message, job.transfer);
    }
  }

  private spawn(urgentOnly: boolean): Slot {
    const worker = new Worker(this.script);
    const slot: Slot = { worker, job: null, urgentOnly };
    worker.unref();
    worker.on('message', (reply: JobReply) => {
      const job = slot.job;
      if (!job || job.message.id !== reply.id) return;
      slot.job = null;
      worker.unref();
      this.settle(job, () => (reply.ok ? job.resolve(reply.value) : job.reject(Object.assign(new Error(reply.error.message), reply.error))));
      this.dispatch();
    });
    const lost = (err: Error) => {
      if (!this.slots.delete(slot)) return;
      if (slot.job) {
        const job = slot.job;
        slot.job = null;
        this.settle(job, () => job.reject(err));
      }
      this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`a CPU worker stopped (exit code ${code})`)));
    this.slots.add(slot);
    return slot;
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, () => job.reject(job.signal!.reason));
      return;
    }
    const slot = [...this.slots].find((s) => s.job === job);
    if (!slot) return;
    // A job cannot be interrupted inside a worker; ending the worker stops it at once.
    this.slots.delete(slot);
    slot.job = null;
    this.settle(job, () => job.reject(job.signal!.reason));
    void slot.worker.terminate();
    this.dispatch();
  }

  private settle(job: Job, finish: () => void): void {
    if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
    finish();
  }
}
