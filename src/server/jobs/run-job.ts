import * as repo from './jobs.repo.js';
import type { JobRow } from './jobs.repo.js';
import type { JobState } from '../store/database.js';
import { isOutage, JobFailure, OUTAGE_REQUEUE_MS } from './job-failure.js';
import { JobLog } from './job-log.js';
import { untilStoreAnswers } from '../store/unavailable.js';
import { armBudget, BUDGET_GRACE_MS } from './limits.js';
import type { JobContext, JobOutcome, KindOptions, QueueCore, Running } from './queue-types.js';

type Outcome = { ok: true; result: unknown } | { ok: false; err: unknown };

/** The log line of a run's start. */
const startLine = (job: Pick<JobRow, 'attempts' | 'max_attempts' | 'crashes'>) =>
  `attempt ${job.attempts} of ${job.max_attempts} started${job.crashes > 0 ? ` (the server stopped ${job.crashes} time(s) during earlier runs)` : ''}`;

/**
 * One attempt of a claimed job: its handler runs under a renewed lease and a time budget, and the
 * job then moves to its next state (succeeded, queued for a retry or the next start, failed, canceled).
 */
export async function runJob(core: QueueCore, job: JobRow, entry: Running): Promise<void> {
  const { handler, options } = core.handlers.get(job.kind)!;
  const db = core.options.db;
  const heartbeat = setInterval(
    () => {
      repo
        .renewLease(db, job.id, core.owner, core.iso(core.leaseMs), core.iso())
        .then(({ held, cancelRequested }) => {
          if (!held) entry.reason ??= 'lease-lost';
          else if (cancelRequested) entry.reason ??= 'canceled';
          else return;
          entry.controller.abort(new Error(entry.reason));
        })
        .catch((err) => {
          // An outage: the lease may run out before the database is back; recovery then knows why.
          core.sawStore(err);
          core.options.onError?.(err, `heartbeat ${job.id}`);
        });
    },
    Math.max(200, Math.min(1000, Math.floor(core.leaseMs / 3))),
  );
  heartbeat.unref();

  // The handler starts while its start line is being committed: the task's first CPU work does
  // not wait for a commit.
  // A line written while the database is away waits for it (as the run's end does, below).
  const givenUp = () => entry.wasAbandoned === true;
  const log = new JobLog((line) =>
    untilStoreAnswers(() => repo.appendLog(db, job.id, core.iso(), line), { stop: givenUp }),
  );
  void log.append(startLine(job));
  const ctx: JobContext = {
    id: job.id,
    kind: job.kind,
    payload: JSON.parse(job.payload),
    attempt: job.attempts,
    maxAttempts: job.max_attempts,
    signal: entry.controller.signal,
    log: (line) => log.append(line),
  };
  const graceMs = core.options.limits?.budgetGraceMs ?? BUDGET_GRACE_MS;
  // Past its budget the run is aborted; one that ignores the abort is given up a little later.
  const budget = armBudget(options.timeBudgetMs, graceMs, (err) => {
    if (entry.reason) return;
    entry.reason = 'over-budget';
    entry.overBudget = err;
    entry.controller.abort(err);
  });
  // A canceled run (or one whose lease went elsewhere) that does not stop is given up after the
  // same grace as one past its budget: a cancel ends the job in bounded time, whatever the handler waits on.
  let stopTimer: NodeJS.Timeout | undefined;
  let gaveUpAfterStop = false;
  const notStopping = new Promise<never>((_, reject) => {
    const signal = entry.controller.signal;
    const onAbort = () => {
      if (entry.reason !== 'canceled' && entry.reason !== 'lease-lost') return;
      stopTimer = setTimeout(() => {
        gaveUpAfterStop = true;
        reject(signal.reason);
      }, graceMs);
      stopTimer.unref();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  notStopping.catch(() => undefined); // raced against the run; unheard when the run ends in time
  let outcome: Outcome;
  try {
    // Stopped or canceled before it started (a claim that raced a stop): a handler listens for the
    // abort event, which has already fired, so it would never hear it. It does not start.
    if (entry.controller.signal.aborted) throw entry.controller.signal.reason;
    const running = handler(ctx);
    running.catch(() => undefined); // a run given up may still end; nobody waits for it then
    const result = await Promise.race([running, budget.givenUp, notStopping, entry.abandoned]);
    outcome = { ok: true, result };
  } catch (err) {
    outcome = { ok: false, err };
  } finally {
    budget.disarm();
    clearTimeout(stopTimer);
    clearInterval(heartbeat);
  }
  // Every line is committed before the run's end; a line that could not be written fails the run
  // as an error of the handler would.
  try {
    // A run given up may still be logging: its lines are not waited for.
    if (!entry.overBudget && !entry.wasAbandoned && !gaveUpAfterStop) await log.drained();
  } catch (err) {
    if (outcome.ok) outcome = { ok: false, err };
  }
  // The run's end is committed once the database answers: an outage does not leave the job
  // "running" until its lease runs out (which recovery would count as a crash). A retried end that
  // had in fact been committed finds the job no longer running and changes nothing.
  await untilStoreAnswers(() => settle(core, job, entry, options, outcome), { stop: givenUp });
}

async function settle(
  core: QueueCore,
  job: JobRow,
  entry: Running,
  options: Required<KindOptions>,
  outcome: Outcome,
): Promise<void> {
  const db = core.options.db;
  const now = core.iso();
  const finish = async (
    state: JobState,
    set: { error?: string | null; result?: string | null; run_after?: string; attempts?: number },
    line: string,
    outcome: JobOutcome = state as JobOutcome,
  ) => {
    if (
      await repo.changeLogged(db, job.id, now, line, (trx) =>
        repo.finishRun(trx, job.id, core.owner, { state, now, ...set }),
      )
    ) {
      if (state === 'queued') core.workQueued(); // claimable again (now or once its retry delay is over)
      core.options.observer?.finished(job.kind, outcome);
      core.emit({ ...job, state, error: set.error ?? null });
    }
  };
  if (entry.reason === 'lease-lost') return; // someone else owns the job now
  if (outcome.ok && !entry.reason) {
    await finish(
      'succeeded',
      { result: outcome.result === undefined ? null : JSON.stringify(outcome.result) },
      'succeeded',
    );
    return;
  }
  if (entry.reason === 'shutdown') {
    // Not the job's fault: give the attempt back so a restart runs it with its full budget.
    await finish(
      'queued',
      { attempts: job.attempts - 1, run_after: now },
      'the server is stopping; back in the queue for the next start',
      'handed_back',
    );
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
  if (isOutage(err)) {
    const delay = Math.round((core.options.outageRequeueMs ?? OUTAGE_REQUEUE_MS) * (0.75 + Math.random() * 0.5));
    await finish(
      'queued',
      { error: message, attempts: job.attempts - 1, run_after: core.iso(delay) },
      `a store could not be reached: ${message}; back in the queue in ${delay} ms (this attempt is not counted)`,
      'deferred',
    );
    return;
  }
  const retryable = !(err instanceof JobFailure) || err.retryable;
  if (retryable && job.attempts < job.max_attempts) {
    const delay = options.retryDelayMs * 2 ** (job.attempts - 1);
    await finish(
      'queued',
      { error: message, run_after: core.iso(delay) },
      `attempt ${job.attempts} failed: ${message}; retrying in ${delay} ms`,
      'retried',
    );
    return;
  }
  await finish('failed', { error: message }, `failed: ${message}`);
}
