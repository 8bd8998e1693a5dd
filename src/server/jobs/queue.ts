import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { CompiledQuery } from 'kysely';
import { newId, randomToken } from '../store/ids.js';
import { busOf } from '../store/cache-bus.js';
import * as repo from './jobs.repo.js';
import type { JobRow } from './jobs.repo.js';
import { BUDGET_GRACE_MS, budgetOf, checkBudgetKinds, DEFAULT_MAX_CRASHES, DEFAULT_TIME_BUDGET_MS } from './limits.js';
import { ClaimLoop } from './claim-loop.js';
import { runJob } from './run-job.js';
import { recoverOrphans } from './recovery.js';
import { OutageWindow } from './outage-window.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import type { JobEvent, JobHandler, KindOptions, QueueCore, QueueOptions, Running } from './queue-types.js';

export type { JobRow } from './jobs.repo.js';
export { TERMINAL_STATES } from './jobs.repo.js';
export { JobFailure } from './job-failure.js';
export type {
  JobContext,
  JobEvent,
  JobHandler,
  JobObserver,
  JobOutcome,
  KindOptions,
  QueueOptions,
} from './queue-types.js';

/**
 * The durable job queue of ARCHITECTURE "Async work": jobs live in the store, are claimed with a
 * lease renewed by heartbeats (claim-loop.ts), run by at most `concurrency` workers (run-job.ts),
 * reach their engine's AbortSignal on cancel, retry transient failures, are stopped and failed past
 * their time budget, and are recovered after a crash (recovery.ts). States: queued → running →
 * succeeded | failed | canceled; running → queued on a transient failure, a graceful shutdown or
 * crash recovery.
 */
export class JobQueue {
  readonly owner = `${os.hostname()}:${process.pid}:${randomToken(6)}`;
  private readonly handlers: QueueCore['handlers'] = new Map();
  private readonly running = new Map<string, Running>();
  private readonly events = new EventEmitter();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxCrashes: number;
  private readonly core: QueueCore;
  private readonly claims: ClaimLoop;
  private timer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private unwake: (() => void) | undefined;

  constructor(private readonly options: QueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
      throw new Error('queue concurrency must be a whole number >= 1');
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 500;
    this.maxCrashes = options.limits?.maxCrashes ?? DEFAULT_MAX_CRASHES;
    if (!Number.isInteger(this.maxCrashes) || this.maxCrashes < 1)
      throw new Error('maxCrashes must be a whole number >= 1');
    this.events.setMaxListeners(0);
    this.core = {
      options,
      owner: this.owner,
      leaseMs: this.leaseMs,
      handlers: this.handlers,
      running: this.running,
      iso: (offsetMs) => this.iso(offsetMs),
      emit: (job) => this.emit(job),
      workQueued: () => this.claims.workQueued(),
      outages: new OutageWindow(),
      sawStore: (err) => {
        const at = options.now().getTime();
        if (err === undefined) this.core.outages.answered(at);
        else if (isStoreUnavailable(err)) this.core.outages.lost(at);
      },
    };
    this.claims = new ClaimLoop(this.core, (job) => this.launch(job));
  }

  register<P>(kind: string, handler: JobHandler<P>, options: KindOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for job kind ${kind} is already registered`);
    const timeBudgetMs = budgetOf(this.options.limits ?? {}, kind, options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS);
    this.handlers.set(kind, {
      // the payload's type is the registering kind's to know: the queue hands it through unread
      handler: handler as JobHandler,
      options: { maxAttempts: options.maxAttempts ?? 3, retryDelayMs: options.retryDelayMs ?? 1000, timeBudgetMs },
    });
  }

  /** The kinds with a registered handler (for /metrics: their series start at 0). */
  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  private iso(offsetMs = 0): string {
    return new Date(this.options.now().getTime() + offsetMs).toISOString();
  }

  /**
   * Adds a job, queued; the claim loop (here or on another instance) starts it. `alongside`: writes
   * committed in the same transaction as the job (the record it works on), so neither exists
   * without the other.
   */
  async enqueue<P>(
    kind: string,
    payload: P,
    options: { id?: string; maxAttempts?: number; alongside?: ReadonlyArray<CompiledQuery> } = {},
  ): Promise<JobRow> {
    const registered = this.handlers.get(kind);
    if (!registered) throw new Error(`no handler registered for job kind ${kind}`);
    const now = this.iso();
    const row: JobRow = {
      id: options.id ?? newId('job'),
      kind,
      payload: JSON.stringify(payload),
      state: 'queued',
      attempts: 0,
      max_attempts: options.maxAttempts ?? registered.options.maxAttempts,
      crashes: 0,
      run_after: now,
      lease_owner: null,
      lease_expires_at: null,
      cancel_requested: 0,
      error: null,
      result: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    };
    await repo.insertJob(this.options.db, row, ['queued'], options.alongside);
    this.emit(row);
    this.claims.wake();
    this.announce();
    return row;
  }

  get(id: string): Promise<JobRow | undefined> {
    return repo.findJob(this.options.db, id);
  }

  getMany(ids: string[]): Promise<JobRow[]> {
    return repo.findJobs(this.options.db, ids);
  }

  logs(id: string, afterId = 0, limit = 1000) {
    return repo.readLogs(this.options.db, id, afterId, limit);
  }

  async log(id: string, line: string): Promise<void> {
    await repo.appendLog(this.options.db, id, this.iso(), line);
  }

  /**
   * Cancels a job: a queued one at once, a running one by aborting its signal (here) or flagging
   * it for its owner's next heartbeat (another instance). Returns the row afterwards, or the
   * unchanged row when the job had already ended; the caller decides how to report that.
   */
  async cancel(
    id: string,
  ): Promise<{ outcome: 'canceled' | 'cancel-requested' | 'already-ended'; job: JobRow } | undefined> {
    const job = await this.get(id);
    if (!job) return undefined;
    const now = this.iso();
    const db = this.options.db;
    if (
      job.state === 'queued' &&
      (await repo.changeLogged(db, id, now, 'canceled before it started', (trx) => repo.cancelQueued(trx, id, now)))
    ) {
      const after = (await this.get(id))!;
      this.emit(after);
      return { outcome: 'canceled', job: after };
    }
    if (job.state === 'running' || job.state === 'queued') {
      if (await repo.changeLogged(db, id, now, 'cancel requested', (trx) => repo.requestCancel(trx, id, now))) {
        const local = this.running.get(id);
        if (local) {
          local.reason ??= 'canceled';
          local.controller.abort(new Error('canceled'));
          // Wait for the run to end: one that ignores its signal is given up after the grace time
          // (run-job.ts) and ends as canceled all the same. Bounded again for a store that is away.
          const graceMs = this.options.limits?.budgetGraceMs ?? BUDGET_GRACE_MS;
          await Promise.race([local.done, new Promise((r) => setTimeout(r, graceMs + 5000).unref())]);
          return { outcome: 'canceled', job: (await this.get(id))! };
        }
        return { outcome: 'cancel-requested', job: (await this.get(id))! };
      }
    }
    return { outcome: 'already-ended', job: (await this.get(id))! };
  }

  /** Puts a failed or canceled job back in the queue with a fresh attempt budget. */
  async retry(id: string): Promise<{ outcome: 'requeued' | 'not-retryable'; job: JobRow } | undefined> {
    const job = await this.get(id);
    if (!job) return undefined;
    const now = this.iso();
    // The row is read in the requeue's transaction: a worker may claim it the moment it commits,
    // and the caller is told what its retry did, not what a worker did next.
    let after: JobRow | undefined;
    const requeued = await repo.changeLogged(
      this.options.db,
      id,
      now,
      `retry requested after ${job.state}; queued again`,
      async (trx) => {
        if (!(await repo.requeueFinished(trx, id, now))) return false;
        after = await repo.findJob(trx, id);
        return true;
      },
    );
    if (!requeued || !after) return { outcome: 'not-retryable', job };
    this.emit(after);
    this.claims.wake();
    this.announce();
    return { outcome: 'requeued', job: after };
  }

  /** Removes ended jobs and their logs, when the records they belong to are deleted. */
  forget(ids: string[]): Promise<void> {
    return repo.deleteEndedJobs(this.options.db, ids);
  }

  /** Listens to every state change made by this process; returns the unsubscribe function. */
  onChange(listener: (event: JobEvent) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }

  /** Resolves with the job once it reaches a terminal state (polls too, for other instances' work). */
  async waitForEnd(id: string, timeoutMs = 60_000): Promise<JobRow> {
    const deadline = Date.now() + timeoutMs;
    // Listening before each read: an end that lands while the row is read is not missed (it would
    // otherwise wait a whole poll interval).
    // eslint-disable-next-line no-useless-assignment -- set by the change listener below, read after each wait
    let ended = false;
    let wakeUp: (() => void) | undefined;
    const off = this.onChange((e) => {
      if (e.id !== id || !repo.TERMINAL_STATES.includes(e.state)) return;
      ended = true;
      wakeUp?.();
    });
    try {
      for (;;) {
        ended = false;
        const job = await this.get(id);
        if (!job) throw new Error(`job ${id} not found`);
        if (repo.TERMINAL_STATES.includes(job.state)) return job;
        if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state} after ${timeoutMs} ms`);
        if (ended) continue;
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, this.pollMs);
          wakeUp = done;
          function done() {
            clearTimeout(t);
            resolve();
          }
        });
        wakeUp = undefined;
      }
    } finally {
      off();
    }
  }

  /** Throws InvalidJobLimits when the limits name a kind no handler was registered for. */
  checkLimits(): void {
    checkBudgetKinds(this.options.limits ?? {}, [...this.handlers.keys()]);
  }

  /** Recovers what a crashed process left running, then starts claiming. */
  async start(): Promise<void> {
    this.checkLimits();
    this.claims.start();
    // Other instances on the same database announce the jobs they queue: an idle worker here takes
    // one at once instead of at its next poll. Its own announcements it has already acted on.
    this.unwake = busOf(this.options.db)?.onWake('job', (from) => {
      if (from !== this.owner) this.claims.wake();
    });
    await this.recover(this.options.recoverAllRunningAtStart);
    this.timer = setInterval(() => this.claims.wake(), this.pollMs);
    this.timer.unref();
    // Often, so an orphan runs again within its lease and a couple of seconds of its worker's death.
    this.sweepTimer = setInterval(
      () => {
        // Also how this process learns that the database is away and back (outage-window.ts).
        this.recover(false).then(
          () => this.core.sawStore(),
          (err) => {
            this.core.sawStore(err);
            this.options.onError?.(err, 'lease sweep');
          },
        );
      },
      Math.max(250, Math.min(2000, Math.floor(this.leaseMs / 3))),
    );
    this.sweepTimer.unref();
    this.claims.wake();
  }

  /**
   * Stops claiming; running jobs are aborted and handed back to the queue for the next start (or
   * another instance). A run still going `waitMs` after its abort (a handler that does not listen,
   * a storage call riding out an outage) is not waited for: it is handed back all the same, so a
   * stop never outlasts the drain it is part of.
   */
  async stop(waitMs = 10_000): Promise<void> {
    this.unwake?.();
    this.unwake = undefined;
    clearInterval(this.timer);
    clearInterval(this.sweepTimer);
    // A claim in flight still launches its job; wait for it so that job is stopped too.
    await this.claims.stop();
    for (const r of this.running.values()) {
      r.reason ??= 'shutdown';
      r.controller.abort(new Error('server shutting down'));
    }
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waitMs)));
    if ((await Promise.race([all, late])) === 'late') {
      for (const r of this.running.values()) r.abandon();
      await all;
    }
    clearTimeout(timer);
  }

  get activeCount(): number {
    return this.running.size;
  }

  /** Jobs this process runs now, by kind (for /metrics). */
  runningKinds(): Map<string, number> {
    const out = new Map<string, number>();
    for (const r of this.running.values()) out.set(r.kind, (out.get(r.kind) ?? 0) + 1);
    return out;
  }

  private emit(job: Pick<JobRow, 'id' | 'kind' | 'state' | 'error'>): void {
    this.events.emit('change', { id: job.id, kind: job.kind, state: job.state, error: job.error } satisfies JobEvent);
  }

  /** Tells the other instances on this database (PostgreSQL) that a job is ready to claim. */
  private announce(): void {
    busOf(this.options.db)
      ?.wake('job', this.owner)
      .catch((err) => this.options.onError?.(err, 'job announcement'));
  }

  /** Hands orphaned jobs back to the queue or fails them (recovery.ts). */
  private recover(anyLease: boolean): Promise<void> {
    return recoverOrphans(this.core, this.maxCrashes, anyLease);
  }

  /** Runs a claimed job in a worker slot; the slot freed, a job waiting for one may be claimed. */
  private launch(job: JobRow): void {
    let reject!: (err: Error) => void;
    const abandoned = new Promise<never>((_, r) => (reject = r));
    abandoned.catch(() => undefined); // raced against the run; unheard when the run ends in time
    const entry: Running = {
      kind: job.kind,
      controller: new AbortController(),
      done: Promise.resolve(),
      abandoned,
      abandon: () => {
        entry.wasAbandoned = true;
        reject(new Error('server shutting down'));
      },
    };
    this.running.set(job.id, entry);
    entry.done = runJob(this.core, job, entry)
      .catch((err) => this.options.onError?.(err, `job ${job.id}`))
      .finally(() => {
        this.running.delete(job.id);
        this.claims.wake(false);
      });
  }
}
