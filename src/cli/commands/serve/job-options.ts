import { InvalidArgumentError } from 'commander';

/** What `--job-time-budget` collects: one budget for every kind, and some kinds' own (milliseconds). */
export interface TimeBudgets {
  defaultMs?: number;
  byKind: Record<string, number>;
}

const MAX_BUDGET_SECONDS = 7 * 86_400;

/**
 * `--job-time-budget [KIND=]SECONDS`, repeatable: "900" is every kind's budget, "image-task=300"
 * one kind's (which wins). The server names its kinds when one given here does not exist.
 */
export function timeBudgetOption(value: string, previous: TimeBudgets | undefined): TimeBudgets {
  const budgets: TimeBudgets = { defaultMs: previous?.defaultMs, byKind: { ...previous?.byKind } };
  const m = /^(?:([a-z][a-z0-9:_-]*)=)?(\d+)$/.exec(value.trim());
  const seconds = m ? Number(m[2]) : NaN;
  if (!m || seconds < 1 || seconds > MAX_BUDGET_SECONDS) {
    throw new InvalidArgumentError(
      `expected SECONDS or KIND=SECONDS, a whole number of seconds from 1 to ${MAX_BUDGET_SECONDS} (kinds: image-task, batch-scrape, beta-review-task, doc-task:ppt, doc-task:landing_page)`,
    );
  }
  if (m[1]) budgets.byKind[m[1]] = seconds * 1000;
  else budgets.defaultMs = seconds * 1000;
  return budgets;
}
