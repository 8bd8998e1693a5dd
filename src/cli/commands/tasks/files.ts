import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { ARTIFACT_COLUMNS } from '../../render/tasks.js';

export async function run(id: string, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  const nodes = await api.tasks.files(id);
  const io = deps.io();
  io.print(nodes, () => io.table(nodes, ARTIFACT_COLUMNS, { empty: 'No artifacts (yet).' }));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('files')
    .argument('<task-id>', 'the task id (task_…)')
    .description("List the files of a task's output folder")
    .addHelpText('after', '\nExample:\n  $ facet tasks files task_0123456789abcdef')
    .action((id: string) => run(id, deps));
}
