import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printTask } from '../../render/tasks.js';

/**
 * Cancel's one answer in every group (docs/decisions.md): a task left canceled is exit 0, also one
 * canceled before; a task that had already ended otherwise is exit 1, saying how it ended.
 */
export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  let task;
  let before = false;
  try {
    task = await api.tasks.cancel(id);
  } catch (err) {
    // The server's 409 for any ended task: one canceled before is the outcome asked for.
    if ((err as { status?: number }).status !== 409) throw err;
    task = await api.tasks.get(id);
    if (task.status !== 'canceled') throw err;
    before = true;
  }
  const io = deps.io();
  printTask(io, task);
  io.success(
    before
      ? `${id} was canceled before`
      : task.status === 'canceled'
        ? `canceled ${id}`
        : `cancel requested for ${id} (${task.status})`,
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('cancel')
    .argument('<task-id>', 'the task id (task_…)')
    .description('Cancel a queued or running task (one already canceled: exit 0; one that ended otherwise: exit 1)')
    .addHelpText('after', '\nExample:\n  $ facet tasks cancel task_0123456789abcdef')
    .action((id: string) => run(id, deps));
}
