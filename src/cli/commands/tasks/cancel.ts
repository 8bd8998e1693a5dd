import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printTask } from '../../render/tasks.js';

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  const task = await api.tasks.cancel(id);
  const io = deps.io();
  printTask(io, task);
  io.success(task.status === 'canceled' ? `canceled ${id}` : `cancel requested for ${id} (${task.status})`);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('cancel')
    .argument('<task-id>', 'the task id (task_…)')
    .description('Cancel a queued or running task (an ended task is an error, exit 1)')
    .addHelpText('after', '\nExample:\n  $ facet tasks cancel task_0123456789abcdef')
    .action((id: string) => run(id, deps));
}
