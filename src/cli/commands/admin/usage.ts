import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';

export interface UsageOptions {
  key?: string;
  user?: string;
  task?: string;
  limit?: number;
}

const usd = (n: number) => `$${n.toFixed(6)}`;

export async function run(opts: UsageOptions, deps: Deps): Promise<void> {
  const api = await deps.api('admin');
  const report = await api.admin.usage({
    api_key_id: opts.key,
    user_id: opts.user,
    task_id: opts.task,
    limit: opts.limit,
  });
  const io = deps.io();
  io.print(report, () => {
    const rows = report.keys.flatMap((k) => [
      { key: k.api_key_id ?? '(access token)', name: k.key_name ?? '', user: k.user_id, model: '*', ...k },
      ...k.models.map((m) => ({ key: '', name: '', user: '', ...m })),
    ]);
    rows.push({ key: 'TOTAL', name: '', user: '', model: '', ...report.totals });
    if (report.keys.length === 0) io.info('No usage recorded for this filter.');
    // At 80 columns the key and what it cost stay whole; the name, user and cache columns give way first.
    io.table(rows, [
      { header: 'KEY', value: (r) => r.key, priority: 1, whole: true },
      { header: 'NAME', value: (r) => r.name, priority: 2 },
      { header: 'USER', value: (r) => r.user, priority: 3 },
      { header: 'MODEL', value: (r) => r.model, priority: 1 },
      { header: 'CALLS', value: (r) => r.calls, priority: 1 },
      { header: 'INPUT', value: (r) => r.input_tokens, priority: 2 },
      { header: 'OUTPUT', value: (r) => r.output_tokens, priority: 2 },
      { header: 'CACHE R/W', value: (r) => `${r.cache_read_tokens}/${r.cache_write_tokens}`, priority: 3 },
      { header: 'COST', value: (r) => usd(r.cost_usd), priority: 1 },
    ]);
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('usage')
    .description('Model-call usage per key: calls, tokens and cost, per model, with totals')
    .option('--key <key-id>', 'only this key')
    .option('--user <user-id>', "only this user's calls")
    .option('--task <task-id>', "only this task's calls")
    .option('--limit <n>', 'at most N keys (1-500, default 100)', intOption(1, 500))
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet admin usage\n  $ facet admin usage --key key_0123456789abcdef --json | jq .totals.cost_usd',
    )
    .action((opts: UsageOptions) => run(opts, deps));
}
