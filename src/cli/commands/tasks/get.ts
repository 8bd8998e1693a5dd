import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printTask } from '../../render/tasks.js';

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  printTask(deps.io(), await api.tasks.get(id));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('get')
    .argument('<task-id>', 'the task id (task_…)')
    .description("Show a task's status")
    .addHelpText('after', '\nExample:\n  $ facet tasks get task_0123456789abcdef --json | jq -r .status')
    .action((id: string) => run(id, deps));
}
