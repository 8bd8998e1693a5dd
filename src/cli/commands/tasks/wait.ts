import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { numberOption } from '../../io/parse.js';
import { printTask } from '../../render/tasks.js';

export async function run(
  id: string,
  opts: { interval: number; timeout: number; out?: string },
  deps: Deps,
): Promise<void> {
  const api = await deps.api('tasks');
  const { waitForTask } = await import('./await.js');
  const task = await waitForTask(api, id, opts, deps);
  if (opts.out) {
    const { writeArtifacts } = await import('./write-artifacts.js');
    const written = await writeArtifacts(api, id, opts.out);
    deps.io().success(`wrote ${written.length} file(s) to ${opts.out}`);
  }
  printTask(deps.io(), task);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('wait')
    .argument('<task-id>', 'the task id (task_…)')
    .description('Wait until a task ends: exit 0 when it succeeded, 6 when it failed or was canceled')
    .option('--interval <s>', 'seconds between polls', numberOption(0.1), 1)
    .option('--timeout <s>', 'give up after this many seconds (exit 1)', numberOption(1), 600)
    .option('--out <dir>', 'then write the artifacts into DIR')
    .addHelpText('after', '\nExample:\n  $ facet tasks wait task_0123456789abcdef --timeout 120 && echo done')
    .action((id: string, opts: { interval: number; timeout: number; out?: string }) => run(id, opts, deps));
}
