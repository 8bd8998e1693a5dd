import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ChildReply, ChildRequest } from './child.js';
import { inputNotPassable, memoryLimitHit, rendererCrashed } from './limits.js';
import { processClock } from './cpu-clock.js';
import { jobError, type Executor, type ExecutorOptions } from './thread-pool.js';

interface Running {
  id: number;
  name: string;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Child {
  proc: ChildProcess;
  job: Running | null;
  /** The end of what the child wrote to stderr: how it died (a V8 heap limit says so there). */
  stderrTail: string;
  idle?: NodeJS.Timeout;
}

/** A child idle this long is ended; the next render starts a new one. */
const IDLE_MS = 60_000;
const TAIL_CHARS = 2_000;

/**
 * Child processes for jobs that run native code (resvg): a Rust panic that cannot unwind aborts
 * its process, so it must not be the server's. No maintained process-pool library is installed
 * (workerpool would be one); this is fork() with one request and one reply a job. Each child runs
 * one job at a time, never more than the lane allows at once; a child that dies fails its job
 * alone, and the next job starts a new one. Idle children are unref'd and end after a minute.
 */
export class ProcessPool implements Executor {
  private readonly children = new Set<Child>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly script: URL,
    private readonly memoryMb: number,
  ) {}

  run(name: string, input: unknown, options: ExecutorOptions): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the CPU worker pool is closed'));
    if (options.signal.aborted) return Promise.reject(options.signal.reason);
    const child = [...this.children].find((c) => c.job === null && c.proc.connected) ?? this.spawn();
    return new Promise((resolve, reject) => {
      const job: Running = { id: this.nextId++, name, resolve, reject };
      const request: ChildRequest = { id: job.id, name, input };
      // The child runs one job at a time: its own CPU time from now is this job's.
      options.onStart?.(processClock(child.proc.pid));
      try {
        // Serialised here, synchronously: an input too deep for it throws before anything is sent.
        child.proc.send(request);
      } catch (err) {
        reject(inputNotPassable(name, err as Error));
        return;
      }
      if (child.idle) clearTimeout(child.idle);
      child.job = job;
      child.proc.channel?.ref();
      const onAbort = () => {
        // A running native call cannot be interrupted; ending the child stops it.
        this.end(child, options.signal.reason);
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      const settle = (fn: (v: unknown) => void) => (v: unknown) => {
        options.signal.removeEventListener('abort', onAbort);
        fn(v);
      };
      job.resolve = settle(resolve);
      job.reject = settle(reject);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.children];
    await Promise.all(
      all.map(
        (c) =>
          new Promise<void>((done) => {
            if (c.proc.exitCode !== null || c.proc.signalCode !== null) return done();
            c.proc.once('exit', () => done());
            this.end(c, new Error('the CPU worker pool closed'));
          }),
      ),
    );
  }

  private spawn(): Child {
    const proc = fork(fileURLToPath(this.script), [], {
      serialization: 'advanced',
      execArgv: [`--max-old-space-size=${this.memoryMb}`],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    const child: Child = { proc, job: null, stderrTail: '' };
    proc.stderr!.on('data', (chunk: Buffer) => {
      // Passed on (a panic's message belongs in the server's log) and kept to tell how it died.
      process.stderr.write(chunk);
      child.stderrTail = (child.stderrTail + chunk.toString('utf8')).slice(-TAIL_CHARS);
    });
    proc.on('message', (reply: ChildReply) => {
      const job = child.job;
      if (!job || reply.id !== job.id) return;
      this.idle(child);
      if (reply.ok) job.resolve(reply.value);
      else job.reject(jobError(reply.error));
    });
    proc.on('exit', (code, signal) => {
      this.children.delete(child);
      if (child.idle) clearTimeout(child.idle);
      const job = child.job;
      child.job = null;
      if (!job) return;
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      job.reject(
        /heap out of memory|Reached heap limit/i.test(child.stderrTail)
          ? memoryLimitHit(job.name, this.memoryMb)
          : rendererCrashed(job.name, how),
      );
    });
    // A failed spawn or a broken channel: the exit that follows settles the job.
    proc.on('error', () => this.end(child));
    this.children.add(child);
    this.idle(child);
    return child;
  }

  /** Marks a child free: unref'd, so an idle one keeps no process alive, and ended after a while. */
  private idle(child: Child): void {
    child.job = null;
    child.proc.channel?.unref();
    child.proc.unref();
    // stderr is a pipe (a net.Socket), though typed as a plain Readable.
    (child.proc.stderr as Socket | null)?.unref();
    if (child.idle) clearTimeout(child.idle);
    child.idle = setTimeout(() => this.end(child), IDLE_MS).unref();
  }

  /** Ends a child; its job, if any, fails with `reason` (or, without one, as a crash when it exits). */
  private end(child: Child, reason?: unknown): void {
    const job = child.job;
    if (job && reason !== undefined) {
      child.job = null;
      job.reject(reason);
    }
    this.children.delete(child);
    child.proc.kill('SIGKILL');
  }
}
