import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { numberOption } from '../../io/parse.js';
import { printTask } from '../../render/tasks.js';

export async function run(
  id: string,
  opts: { wait?: boolean; interval: number; timeout: number },
  deps: Deps,
): Promise<void> {
  const api = await deps.api('tasks');
  let task = await api.tasks.retry(id);
  deps.io().info(`${id} queued again`);
  if (opts.wait) {
    const { waitForTask } = await import('./await.js');
    task = await waitForTask(api, id, opts, deps);
  }
  printTask(deps.io(), task);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('retry')
    .argument('<task-id>', 'the task id (task_…)')
    .description('Run a failed or canceled task again')
    .option('--wait', 'wait until it ends; exit 6 if it fails again')
    .option('--interval <s>', 'seconds between polls while waiting', numberOption(0.1), 1)
    .option('--timeout <s>', 'give up waiting after this many seconds', numberOption(1), 600)
    .addHelpText('after', '\nExample:\n  $ facet tasks retry task_0123456789abcdef --wait')
    .action((id: string, opts: { wait?: boolean; interval: number; timeout: number }) => run(id, opts, deps));
}
