import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminalDocTaskStatus, type TaskHistorical } from '../../../contract/doc-tasks.js';
import type { ApiOf } from '../../../client/index.js';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { startSpinner } from '../../io/spinner.js';
import { facetCommand } from '../../io/follow-up.js';

export interface WaitOptions {
  /** Seconds between polls; spec 3 advises 2-5. */
  interval: number;
  /** Seconds after which the CLI stops waiting (the task goes on). */
  timeout: number;
}

/** The group a task belongs to in the CLI, for the hints: `facet slides …`, `facet pages …`. */
export interface TaskGroup {
  command: string;
  noun: string;
}

const elapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

/**
 * Polls a slide or landing-page task until it ends (spec 3): a spinner with its status and the
 * time waited on a terminal, a line per status change otherwise. COMPLETED returns the historical
 * record; FAILED, PENDING, EXPIRED and CANCELED are exit 6 with the task's error_message; a status
 * this CLI does not know is waited on (spec 3 rule 2). Ctrl-C stops the waiting only (exit 130).
 */
export async function waitForDocTask(
  api: ApiOf<'docTasks'>,
  taskId: string,
  opts: WaitOptions,
  group: TaskGroup,
  deps: Deps,
): Promise<TaskHistorical> {
  const started = Date.now();
  const quiet = Boolean(deps.globals().quiet);
  const interrupted = () =>
    new CliError(
      `interrupted: stopped waiting; ${group.noun} task ${taskId} keeps running on the server`,
      EXIT.interrupted,
      `follow it again with: ${facetCommand(deps, `${group.command} wait ${taskId}`)}`,
    );
  const waiting = await startSpinner(deps, `${taskId}: waiting`, { interrupted });
  let last = '';
  try {
    for (;;) {
      const { status } = await waiting.race(api.docTasks.status(taskId, { signal: waiting.signal }));
      if (waiting.drawn) waiting.setText(`${group.noun} ${taskId}: ${status} (${elapsed(Date.now() - started)})`);
      else if (status !== last && !quiet) deps.streams.stderr.write(`${taskId}: ${status}\n`);
      last = status;
      if (isTerminalDocTaskStatus(status)) {
        const record = await waiting.race(api.docTasks.historical(taskId, { signal: waiting.signal }));
        if (record.task_status === 'COMPLETED') {
          waiting.succeed(`${group.noun} ${taskId}: COMPLETED in ${elapsed(Date.now() - started)}`);
          return record;
        }
        waiting.fail(`${group.noun} ${taskId}: ${record.task_status}`);
        const hint =
          record.task_status === 'PENDING'
            ? `run it again when the model service is back: ${facetCommand(deps, `${group.command} retry ${taskId}`)}`
            : undefined;
        throw new CliError(
          `${group.noun} task ${taskId} ended ${record.task_status}${record.error_message ? `: ${record.error_message}` : ''}`,
          EXIT.taskFailed,
          hint,
        );
      }
      if (Date.now() - started > opts.timeout * 1000) {
        waiting.clear();
        throw new CliError(
          `${group.noun} task ${taskId} is still ${status} after ${opts.timeout}s; it keeps running`,
          EXIT.failure,
          `\`${facetCommand(deps, `${group.command} wait ${taskId}`)}\` to keep waiting`,
        );
      }
      await waiting.race(sleep(opts.interval * 1000, undefined, { signal: waiting.signal }));
    }
  } finally {
    waiting.close();
  }
}
