import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { TASK_COLUMNS } from '../../render/tasks.js';

export interface ListOptions {
  project?: string;
  status?: 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';
  limit?: number;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  const tasks = await api.tasks.list({ project_id: opts.project, status: opts.status, limit: opts.limit });
  const io = deps.io();
  io.print(tasks, () => io.table(tasks, TASK_COLUMNS, { empty: 'No tasks.' }));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List your tasks, newest first')
    .option('--project <project-id>', "only this project's tasks")
    .addOption(
      new Option('--status <state>', 'only tasks in this state').choices([
        'queued',
        'running',
        'succeeded',
        'failed',
        'canceled',
      ]),
    )
    .option('--limit <n>', 'at most N tasks (1-500, default 100)', intOption(1, 500))
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet tasks list --project prj_0123456789abcdef\n  $ facet tasks list --status failed --json | jq -r ".[].id"',
    )
    .action((opts: ListOptions) => run(opts, deps));
}
