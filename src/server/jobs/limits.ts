import { JobFailure } from './job-failure.js';

/**
 * The two limits that keep one bad job from taking the server down again and again (issue 32):
 * a time budget per run, and a count of the times the server died while running the job.
 */

/** A run of a kind that names no budget of its own is stopped after this long. */
export const DEFAULT_TIME_BUDGET_MS = 30 * 60_000;
/** After this many server deaths during its runs a job is failed instead of run again. */
export const DEFAULT_MAX_CRASHES = 2;
/** A handler that ignores its abort this long after its budget ran out is left behind: the job fails anyway. */
export const BUDGET_GRACE_MS = 5_000;

export interface JobLimits {
  /** `facet serve --job-max-crashes N`. */
  maxCrashes?: number;
  /** `facet serve --job-time-budget [KIND=]SECONDS`: every kind's, and some kinds' own. */
  timeBudgets?: { defaultMs?: number; byKind?: Record<string, number> };
  /** How long a run past its budget may take to stop before it is given up; BUDGET_GRACE_MS by default. */
  budgetGraceMs?: number;
}

/** The operator's budget for the kind, else the operator's default, else the kind's own. */
export function budgetOf(limits: JobLimits, kind: string, kindOwnMs: number): number {
  return limits.timeBudgets?.byKind?.[kind] ?? limits.timeBudgets?.defaultMs ?? kindOwnMs;
}

/** The operator's limits name something that does not exist: a usage error of `facet serve`. */
export class InvalidJobLimits extends Error {
  override readonly name = 'InvalidJobLimits';
}

/** Budgets named for kinds that are not registered are a typing mistake the operator should hear about. */
export function checkBudgetKinds(limits: JobLimits, kinds: string[]): void {
  const unknown = Object.keys(limits.timeBudgets?.byKind ?? {}).filter((k) => !kinds.includes(k));
  if (unknown.length > 0)
    throw new InvalidJobLimits(
      `--job-time-budget names unknown task kind(s) ${unknown.join(', ')}; the kinds are ${kinds.join(', ')}`,
    );
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200 || s % 3600 !== 0) return `${Math.round(s / 60)} min`;
  return `${s / 3600} h`;
}

export const overBudget = (ms: number) =>
  new JobFailure(`the task ran longer than its time budget of ${formatDuration(ms)} and was stopped`);

export const tooManyCrashes = (crashes: number, max: number) =>
  `the server stopped ${crashes} ${crashes === 1 ? 'time' : 'times'} while running this task; it is not run again (limit --job-max-crashes ${max})`;

/**
 * Arms the budget of one run: at its end the run is aborted with the over-budget failure, and a
 * run that has not stopped `graceMs` later is given up (the returned promise rejects).
 */
export function armBudget(
  ms: number,
  graceMs: number,
  onOver: (err: JobFailure) => void,
): { givenUp: Promise<never>; disarm: () => void } {
  let giveUp!: (err: JobFailure) => void;
  const givenUp = new Promise<never>((_, reject) => (giveUp = reject));
  givenUp.catch(() => undefined); // raced against the run; unheard when the run ends in time
  let grace: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    const err = overBudget(ms);
    onOver(err);
    grace = setTimeout(() => giveUp(err), graceMs);
    grace.unref();
  }, ms);
  timer.unref();
  return {
    givenUp,
    disarm: () => {
      clearTimeout(timer);
      clearTimeout(grace);
    },
  };
}
