import type { TaskInfo } from '../../../contract/image-tasks.js';
import type { ApiOf } from '../../../client/index.js';
import type { Deps } from '../../deps.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError, EXIT } from '../../exit-codes.js';
import { startSpinner } from '../../io/spinner.js';
import { facetCommand } from '../../io/follow-up.js';

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

export interface WaitOptions {
  /** Seconds between polls. */
  interval: number;
  /** Seconds before giving up (exit 1); the task keeps running. */
  timeout: number;
}

/** Ctrl-C stops the waiting, not the task: it goes on running on the server. */
export function waitInterrupted(id: string, deps: Deps): CliError {
  return new CliError(
    `interrupted: stopped waiting; task ${id} keeps running on the server`,
    EXIT.interrupted,
    `follow it again with: ${facetCommand(deps, `tasks wait ${id}`)}`,
  );
}

/**
 * Polls a task until it ends. On a TTY stderr shows a spinner with the status and elapsed time;
 * otherwise one line per status change (none with --quiet). A failed or canceled task is exit 6;
 * Ctrl-C is exit 130 with the command that follows the task again.
 */
export async function waitForTask(api: ApiOf<'tasks'>, id: string, opts: WaitOptions, deps: Deps): Promise<TaskInfo> {
  const started = Date.now();
  const quiet = Boolean(deps.globals().quiet);
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const waiting = await startSpinner(deps, `${id}: waiting`, { interrupted: () => waitInterrupted(id, deps) });
  let last = '';
  try {
    for (;;) {
      const task = await waiting.race(api.tasks.get(id, { signal: waiting.signal }));
      const label =
        task.status === 'running' && task.attempts > 1
          ? `running (attempt ${task.attempts} of ${task.max_attempts})`
          : task.status;
      if (waiting.drawn) waiting.setText(`${id}: ${label} ${elapsed()}`);
      else if (label !== last && !quiet) deps.streams.stderr.write(`${id}: ${label} (${elapsed()})\n`);
      last = label;
      if (TERMINAL.has(task.status)) {
        if (task.status === 'succeeded') {
          waiting.succeed(`${id}: succeeded in ${elapsed()}`);
          return task;
        }
        waiting.fail(`${id}: ${task.status} after ${elapsed()}`);
        throw new CliError(
          `task ${id} ${task.status}: ${task.error ?? 'no reason given'}`,
          EXIT.taskFailed,
          `see \`${facetCommand(deps, `tasks logs ${id}`)}\``,
        );
      }
      if (Date.now() - started > opts.timeout * 1000) {
        waiting.clear();
        throw new CliError(
          `task ${id} is still ${task.status} after ${opts.timeout}s; it keeps running`,
          EXIT.failure,
          `\`${facetCommand(deps, `tasks wait ${id}`)}\` to keep waiting`,
        );
      }
      await waiting.race(sleep(opts.interval * 1000, undefined, { signal: waiting.signal }));
    }
  } finally {
    waiting.close();
  }
}
