import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { numberOption } from '../../io/parse.js';

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

export async function run(id: string, opts: { follow?: boolean; interval: number }, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  const io = deps.io();
  let after = 0;
  for (;;) {
    const log = await api.tasks.logs(id, { after });
    for (const l of log.lines) {
      if (io.json) io.printJsonLine(l);
      else io.write(`${l.at}  ${l.line}\n`);
    }
    after = log.next_after;
    if (!opts.follow || (TERMINAL.has(log.status) && log.lines.length === 0)) return;
    if (log.lines.length === 0) await sleep(opts.interval * 1000);
  }
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('logs')
    .argument('<task-id>', 'the task id (task_…)')
    .description("Print a task's timestamped log lines (--json: one JSON object per line)")
    .option('-f, --follow', 'keep printing new lines until the task ends')
    .option('--interval <s>', 'seconds between polls with --follow', numberOption(0.1), 1)
    .addHelpText('after', '\nExample:\n  $ facet tasks logs task_0123456789abcdef --follow')
    .action((id: string, opts: { follow?: boolean; interval: number }) => run(id, opts, deps));
}
