import type { TaskInfo } from '../../../contract/image-tasks.js';
import type { Api } from '../../../client/index.js';
import type { Deps } from '../../deps.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError, EXIT } from '../../exit-codes.js';
import { startSpinner } from '../../io/spinner.js';

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

export interface WaitOptions {
  /** Seconds between polls. */
  interval: number;
  /** Seconds before giving up (exit 1); the task keeps running. */
  timeout: number;
}

/**
 * Polls a task until it ends. On a TTY stderr shows a spinner with the status and elapsed time;
 * otherwise one line per status change (none with --quiet). A failed or canceled task is exit 6.
 */
export async function waitForTask(api: Api, id: string, opts: WaitOptions, deps: Deps): Promise<TaskInfo> {
  const started = Date.now();
  const quiet = Boolean(deps.globals().quiet);
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const spinner = await startSpinner(deps, `${id}: waiting`);
  let last = '';
  try {
    for (;;) {
      const task = await api.tasks.get(id);
      const label = task.status === 'running' && task.attempts > 1 ? `running (attempt ${task.attempts} of ${task.max_attempts})` : task.status;
      if (spinner) spinner.text = `${id}: ${label} ${elapsed()}`;
      else if (label !== last && !quiet) deps.streams.stderr.write(`${id}: ${label} (${elapsed()})\n`);
      last = label;
      if (TERMINAL.has(task.status)) {
        if (task.status === 'succeeded') {
          if (spinner) spinner.succeed(`${id}: succeeded in ${elapsed()}`);
          return task;
        }
        spinner?.fail(`${id}: ${task.status} after ${elapsed()}`);
        throw new CliError(`task ${id} ${task.status}: ${task.error ?? 'no reason given'}`, EXIT.taskFailed, `see \`facet tasks logs ${id}\``);
      }
      if (Date.now() - started > opts.timeout * 1000) {
        spinner?.stop();
        throw new CliError(`task ${id} is still ${task.status} after ${opts.timeout}s; it keeps running`, EXIT.failure, `\`facet tasks wait ${id}\` to keep waiting`);
      }
      await sleep(opts.interval * 1000);
    }
  } finally {
    if (spinner?.isSpinning) spinner.stop();
  }
}
