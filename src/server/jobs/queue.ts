import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database, JobState } from '../store/database.js';
import { newId, randomToken } from '../store/ids.js';
import { busOf } from '../store/cache-bus.js';
import * as repo from './jobs.repo.js';
import { JobLog } from './job-log.js';
import type { JobRow } from './jobs.repo.js';
import { JobFailure } from './job-failure.js';
import { armBudget, BUDGET_GRACE_MS, budgetOf, checkBudgetKinds, DEFAULT_MAX_CRASHES, DEFAULT_TIME_BUDGET_MS, tooManyCrashes, type JobLimits } from './limits.js';

export type { JobRow } from './jobs.repo.js';
export { TERMINAL_STATES } from './jobs.repo.js';

/** The log line of a run's start. */
const startLine = (job: Pick<JobRow, 'attempts' | 'max_attempts' | 'crashes'>) =>
  `attempt ${job.attempts} of ${job.max_attempts} started${job.crashes > 0 ? ` (the server stopped ${job.crashes} time(s) during earlier runs)` : ''}`;

/** What a handler gets for one attempt of one job. */
export interface JobContext<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted on cancel, on shutdown, and when the lease is lost; engines pass it down. */
  signal: AbortSignal;
  /**
   * A timestamped line in the job's log (GET /tasks/{id}/logs shows them). Lines are committed in
   * the order they were logged, and all of them before the run's end; a handler need not wait for
   * one before going on (the promise settles when it is committed, and a failed line fails the run).
   */
  log(line: string): Promise<void>;
}

export type JobHandler<P = unknown> = (job: JobContext<P>) => Promise<unknown>;

export { JobFailure } from './job-failure.js';

export interface KindOptions {
  /**
   * Runs of one job before it fails for good, counting failed runs only: a run cut short by the
   * server's death is counted apart, against the queue's `maxCrashes`. Default 3.
   */
  maxAttempts?: number;
  /** Wait before a retry after a transient failure: delay * 2^(attempt-1). Default 1000 ms. */
  retryDelayMs?: number;
  /** A run still going after this long is stopped and the job failed (the operator's budget wins). Default 30 min. */
  timeBudgetMs?: number;
}

export interface QueueOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** Jobs run at once by this process. */
  concurrency: number;
  /** A claimed job belongs to this process until now + leaseMs; heartbeats renew it. */
  leaseMs?: number;
  /** How often to look for work others enqueued and retries that came due. */
  pollMs?: number;
  /**
   * At start-up, treat every running job as orphaned, not only expired leases. True for SQLite:
   * its file belongs to one server process, so a running job at start-up was left by a crash.
   */
  recoverAllRunningAtStart: boolean;
  onError?: (err: unknown, where: string) => void;
  /** Time budgets and the crash limit (jobs/limits.ts); defaults when absent. */
  limits?: JobLimits;
}

export interface JobEvent {
  id: string;
  kind: string;
  state: JobState;
  error: string | null;
}

type AbortReason = 'canceled' | 'shutdown' | 'lease-lost' | 'over-budget';

interface Running {
  controller: AbortController;
  reason?: AbortReason;
  /** Set when the run outlived its time budget: the job's error. */
  overBudget?: JobFailure;
  done: Promise<void>;
}

/**
 * The durable job queue of ARCHITECTURE "Async work": jobs live in the store, are claimed with a
 * lease renewed by heartbeats, run by at most `concurrency` workers, reach their engine's
 * AbortSignal on cancel, retry transient failures, are stopped and failed past their time budget,
 * and are recovered after a crash (run again until the server has died `maxCrashes` times during
 * the job's runs, then failed with that reason). States: queued → running → succeeded | failed |
 * canceled; running → queued on a transient failure, a graceful shutdown or crash recovery.
 */
export class JobQueue {
  readonly owner = `${os.hostname()}:${process.pid}:${randomToken(6)}`;
  private readonly handlers = new Map<string, { handler: JobHandler<any>; options: Required<KindOptions> }>();
  private readonly running = new Map<string, Running>();
  private readonly events = new EventEmitter();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxCrashes: number;
  private timer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private repump = false;
  private stopped = true;
  private unwake: (() => void) | undefined;
  /**
   * Counts the moments a job may have become claimable (queued here or announced by another
   * instance, a retry, a poll tick); `emptyAt` is the count when a claim last found nothing more to
   * take. Equal counts: nothing was queued since, so a worker slot that frees up does not ask again.
   */
  private workSeen = 0;
  private emptyAt = -1;

  constructor(private readonly options: QueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error('queue concurrency must be a whole number >= 1');
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 500;
    this.maxCrashes = options.limits?.maxCrashes ?? DEFAULT_MAX_CRASHES;
    if (!Number.isInteger(this.maxCrashes) || this.maxCrashes < 1) throw new Error('maxCrashes must be a whole number >= 1');
    this.events.setMaxListeners(0);
  }

  register<P>(kind: string, handler: JobHandler<P>, options: KindOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for job kind ${kind} is already registered`);
    const timeBudgetMs = budgetOf(this.options.limits ?? {}, kind, options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS);
    this.handlers.set(kind, { handler, options: { maxAttempts: options.maxAttempts ?? 3, retryDelayMs: options.retryDelayMs ?? 1000, timeBudgetMs } });
  }

  private iso(offsetMs = 0): string {
    return new Date(this.options.now().getTime() + offsetMs).toISOString();
  }

  /**
   * Adds a job; an idle worker of this process claims it at once. `alongside`: writes committed in
   * the same transaction as the job (the record it works on), so neither exists without the other.
   */
  async enqueue<P>(kind: string, payload: P, options: { id?: string; maxAttempts?: number; alongside?: ReadonlyArray<CompiledQuery> } = {}): Promise<JobRow> {
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
    if (!this.freeToStartAtOnce()) {
      await repo.insertJob(this.options.db, row, ['queued'], options.alongside);
      this.emit(row);
      this.wake();
      this.announce();
      return row;
    }
    // A worker here is free and no older job waits: the job is written already running under this
    // process's lease, its start logged in the same commit, and starts as soon as that commits; no
    // claim after it.
    Object.assign(row, { state: 'running', attempts: 1, lease_owner: this.owner, lease_expires_at: this.iso(this.leaseMs), started_at: now } satisfies Partial<JobRow>);
    const entry = this.reserve(row.id);
    const inserted = repo.insertJob(this.options.db, row, ['queued', startLine(row)], options.alongside);
    entry.done = inserted.then(
      () => {
        this.emit({ ...row, state: 'queued' });
        this.emit(row);
        return this.run(row, entry, true);
      },
      () => this.release(row.id),
    );
    await inserted;
    return row;
  }

  /**
   * Whether a new job can start as it is inserted: this process is claiming, has a free worker, and
   * knows the queue holds nothing claimable (its last claim found it empty, nothing was queued since,
   * and on PostgreSQL it would have heard of another instance's jobs), so no older job is passed over.
   */
  private freeToStartAtOnce(): boolean {
    return (
      !this.stopped &&
      !this.pumping &&
      this.running.size < this.options.concurrency &&
      this.emptyAt === this.workSeen &&
      (busOf(this.options.db)?.trusted ?? true)
    );
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
  async cancel(id: string): Promise<{ outcome: 'canceled' | 'cancel-requested' | 'already-ended'; job: JobRow } | undefined> {
    const job = await this.get(id);
    if (!job) return undefined;
    const now = this.iso();
    if (job.state === 'queued' && (await repo.cancelQueued(this.options.db, id, now))) {
      await repo.appendLog(this.options.db, id, now, 'canceled before it started');
      const after = (await this.get(id))!;
      this.emit(after);
      return { outcome: 'canceled', job: after };
    }
    if (job.state === 'running' || job.state === 'queued') {
      if (await repo.requestCancel(this.options.db, id, now)) {
        await repo.appendLog(this.options.db, id, now, 'cancel requested');
        const local = this.running.get(id);
        if (local) {
          local.reason ??= 'canceled';
          local.controller.abort(new Error('canceled'));
          // Wait for the engine to stop, bounded: a handler that ignores its signal still ends as canceled.
          await Promise.race([local.done, new Promise((r) => setTimeout(r, 5000).unref())]);
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
    if (!(await repo.requeueFinished(this.options.db, id, now))) return { outcome: 'not-retryable', job };
    await repo.appendLog(this.options.db, id, now, `retry requested after ${job.state}; queued again`);
    const after = (await this.get(id))!;
    this.emit(after);
    this.wake();
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

  /** Recovers what a crashed process left running, then starts claiming. */
  /** Throws InvalidJobLimits when the limits name a kind no handler was registered for. */
  checkLimits(): void {
    checkBudgetKinds(this.options.limits ?? {}, [...this.handlers.keys()]);
  }

  async start(): Promise<void> {
    this.checkLimits();
    this.stopped = false;
    // Other instances on the same database announce the jobs they queue: an idle worker here takes
    // one at once instead of at its next poll. Its own announcements it has already acted on.
    this.unwake = busOf(this.options.db)?.onWake('job', (from) => {
      if (from !== this.owner) this.wake();
    });
    await this.recover(this.options.recoverAllRunningAtStart);
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    // Often, so an orphan runs again within its lease and a couple of seconds of its worker's death.
    this.sweepTimer = setInterval(() => {
      this.recover(false).catch((err) => this.options.onError?.(err, 'lease sweep'));
    }, Math.max(250, Math.min(2000, Math.floor(this.leaseMs / 3))));
    this.sweepTimer.unref();
    this.wake();
  }

  /** Stops claiming; running jobs are aborted and handed back to the queue for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unwake?.();
    this.unwake = undefined;
    clearInterval(this.timer);
    clearInterval(this.sweepTimer);
    // A claim in flight still launches its job; wait for it so that job is stopped too.
    await this.pumping;
    for (const r of this.running.values()) {
      r.reason ??= 'shutdown';
      r.controller.abort(new Error('server shutting down'));
    }
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  get activeCount(): number {
    return this.running.size;
  }

  private emit(job: Pick<JobRow, 'id' | 'kind' | 'state' | 'error'>): void {
    this.events.emit('change', { id: job.id, kind: job.kind, state: job.state, error: job.error } satisfies JobEvent);
  }

  /** Tells the other instances on this database (PostgreSQL) that a job is ready to claim. */
  private announce(): void {
    busOf(this.options.db)?.wake('job', this.owner).catch((err) => this.options.onError?.(err, 'job announcement'));
  }

  /**
   * Claims work for the free slots. `newWork`: a job may have become claimable; otherwise only a
   * slot freed up, and the claim is skipped when the last one found the queue empty and nothing was
   * queued since (unless this process might have missed another instance's announcement).
   */
  private wake(newWork = true): void {
    if (newWork) this.workSeen++;
    if (this.stopped) return;
    if (this.pumping) {
      this.repump = true;
      return;
    }
    if (this.emptyAt === this.workSeen && (busOf(this.options.db)?.trusted ?? true)) return;
    this.pumping = this.pump()
      .catch((err) => this.options.onError?.(err, 'claim'))
      .finally(() => {
        this.pumping = undefined;
        if (this.repump) {
          this.repump = false;
          this.wake(false);
        }
      });
  }

  /**
   * Fills the free worker slots in one claim per round: a round that gets fewer jobs than it had
   * slots found the queue empty, so a task run alone costs one claim, not a second empty one that
   * its own first steps would wait behind.
   */
  private async pump(): Promise<void> {
    const kinds = [...this.handlers.keys()];
    while (!this.stopped && this.running.size < this.options.concurrency) {
      const free = this.options.concurrency - this.running.size;
      const seen = this.workSeen;
      const claimed = repo.claimJobs(this.options.db, { kinds, owner: this.owner, now: this.iso(), leaseExpiresAt: this.iso(this.leaseMs), limit: free });
      // Claimed already (SQLite): the job starts before the enqueue's caller goes on (its answer is
      // sent while the job's first steps wait), not after it.
      const jobs = Array.isArray(claimed) ? claimed : await claimed;
      for (const job of jobs) {
        this.emit(job);
        this.launch(job);
      }
      if (jobs.length < free) {
        this.emptyAt = seen;
        return;
      }
    }
  }

  private launch(job: JobRow): void {
    const entry = this.reserve(job.id);
    entry.done = this.run(job, entry, false);
  }

  /** Takes a worker slot for the job (before its row may even be committed). */
  private reserve(id: string): Running {
    const entry: Running = { controller: new AbortController(), done: Promise.resolve() };
    this.running.set(id, entry);
    return entry;
  }

  /** Frees the job's worker slot; a job waiting for one may be claimed. */
  private release(id: string): void {
    this.running.delete(id);
    this.wake(false);
  }

  private run(job: JobRow, entry: Running, startLogged: boolean): Promise<void> {
    return this.execute(job, entry, startLogged)
      .catch((err) => this.options.onError?.(err, `job ${job.id}`))
      .finally(() => this.release(job.id));
  }

  private async execute(job: JobRow, entry: Running, startLogged: boolean): Promise<void> {
    const { handler, options } = this.handlers.get(job.kind)!;
    const db = this.options.db;
    const heartbeat = setInterval(() => {
      repo
        .renewLease(db, job.id, this.owner, this.iso(this.leaseMs), this.iso())
        .then(({ held, cancelRequested }) => {
          if (!held) entry.reason ??= 'lease-lost';
          else if (cancelRequested) entry.reason ??= 'canceled';
          else return;
          entry.controller.abort(new Error(entry.reason));
        })
        .catch((err) => this.options.onError?.(err, `heartbeat ${job.id}`));
    }, Math.max(200, Math.min(1000, Math.floor(this.leaseMs / 3))));
    heartbeat.unref();

    // The handler starts while its start line is being committed: the task's first CPU work does
    // not wait for a commit.
    const log = new JobLog((line) => this.log(job.id, line));
    if (!startLogged) void log.append(startLine(job));
    const ctx: JobContext = {
      id: job.id,
      kind: job.kind,
      payload: JSON.parse(job.payload),
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      signal: entry.controller.signal,
      log: (line) => log.append(line),
    };
    // Past its budget the run is aborted; one that ignores the abort is given up a little later.
    const budget = armBudget(options.timeBudgetMs, this.options.limits?.budgetGraceMs ?? BUDGET_GRACE_MS, (err) => {
      if (entry.reason) return;
      entry.reason = 'over-budget';
      entry.overBudget = err;
      entry.controller.abort(err);
    });
    let outcome: { ok: true; result: unknown } | { ok: false; err: unknown };
    try {
      // Stopped or canceled before it started (a claim that raced a stop): a handler listens for the
      // abort event, which has already fired, so it would never hear it. It does not start.
      if (entry.controller.signal.aborted) throw entry.controller.signal.reason;
      const running = handler(ctx);
      running.catch(() => undefined); // a run given up may still end; nobody waits for it then
      const result = await Promise.race([running, budget.givenUp]);
      outcome = { ok: true, result };
    } catch (err) {
      outcome = { ok: false, err };
    } finally {
      budget.disarm();
      clearInterval(heartbeat);
    }
    // Every line is committed before the run's end; a line that could not be written fails the run
    // as an error of the handler would.
    try {
      // A run given up may still be logging: its lines are not waited for.
      if (!entry.overBudget) await log.drained();
    } catch (err) {
      if (outcome.ok) outcome = { ok: false, err };
    }
    await this.settle(job, entry, options, outcome);
  }

  private async settle(job: JobRow, entry: Running, options: Required<KindOptions>, outcome: { ok: true; result: unknown } | { ok: false; err: unknown }): Promise<void> {
    const db = this.options.db;
    const now = this.iso();
    const finish = async (state: JobState, set: { error?: string | null; result?: string | null; run_after?: string; attempts?: number }, line: string) => {
      if (await repo.finishRun(db, job.id, this.owner, { state, now, ...set })) {
        if (state === 'queued') this.workSeen++; // claimable again (now or once its retry delay is over)
        await repo.appendLog(db, job.id, now, line);
        this.emit({ ...job, state, error: set.error ?? null });
      }
    };
    if (entry.reason === 'lease-lost') return; // someone else owns the job now
    if (outcome.ok && !entry.reason) {
      await finish('succeeded', { result: outcome.result === undefined ? null : JSON.stringify(outcome.result) }, 'succeeded');
      return;
    }
    if (entry.reason === 'shutdown') {
      // Not the job's fault: give the attempt back so a restart runs it with its full budget.
      await finish('queued', { attempts: job.attempts - 1, run_after: now }, 'the server is stopping; back in the queue for the next start');
      return;
    }
    if (entry.reason === 'over-budget') {
      // Not retried: the same work would most likely run as long again.
      const message = entry.overBudget!.message;
      await finish('failed', { error: message }, `failed: ${message}`);
      return;
    }
    const flagged = (await repo.findJob(db, job.id))?.cancel_requested === 1;
    if (entry.reason === 'canceled' || flagged) {
      await finish('canceled', { error: 'canceled while running' }, 'canceled while running');
      return;
    }
    const err = outcome.ok ? new Error('aborted') : outcome.err;
    const e = err as { message?: string; code?: string; name?: string } | undefined;
    const message = (err instanceof Error ? err.message : String(err)) || e?.code || e?.name || 'unknown error';
    const retryable = !(err instanceof JobFailure) || err.retryable;
    if (retryable && job.attempts < job.max_attempts) {
      const delay = options.retryDelayMs * 2 ** (job.attempts - 1);
      await finish('queued', { error: message, run_after: this.iso(delay) }, `attempt ${job.attempts} failed: ${message}; retrying in ${delay} ms`);
      return;
    }
    await finish('failed', { error: message }, `failed: ${message}`);
  }

  /**
   * Jobs whose worker died (its process was killed, crashed or froze past its lease). The death is
   * counted on the job, not as one of its attempts: a job that may itself be what takes the server
   * down runs again only until the server has died `maxCrashes` times during its runs, then fails.
   */
  private async recover(anyLease: boolean): Promise<void> {
    const db = this.options.db;
    const now = this.iso();
    for (const orphan of await repo.findOrphans(db, now, anyLease)) {
      if (this.running.has(orphan.id)) continue;
      let state: 'queued' | 'failed' | 'canceled';
      let error: string | null;
      const crashes = orphan.crashes + 1;
      if (orphan.cancel_requested) {
        state = 'canceled';
        error = 'canceled; the server stopped while it ran';
      } else if (crashes < this.maxCrashes) {
        state = 'queued';
        error = null;
      } else {
        state = 'failed';
        error = tooManyCrashes(crashes, this.maxCrashes);
      }
      const counted = state === 'canceled' ? {} : { crashes, attempts: Math.max(0, orphan.attempts - 1) };
      if (!(await repo.recoverOrphan(db, orphan, { state, error, now, ...counted }))) continue;
      if (state === 'queued') this.workSeen++;
      const line =
        state === 'queued'
          ? `recovered: the server stopped during attempt ${orphan.attempts} of ${orphan.max_attempts} (lease ${orphan.lease_owner ?? 'none'}); queued to run again (server stops during this task: ${crashes}; at ${this.maxCrashes} it fails)`
          : `recovered: ${error}`;
      await repo.appendLog(db, orphan.id, now, line);
      this.emit({ ...orphan, state, error });
    }
  }
}
