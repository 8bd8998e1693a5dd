import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT, usageError } from '../../exit-codes.js';
import { intOption, numberOption } from '../../io/parse.js';
import { dataDirOf, dataDirOption, withStore } from './offline.js';

interface RecordOptions {
  key?: string;
  user?: string;
  task?: string;
  model: string;
  operation: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  webSearches: number;
  cost: number;
  dataDir?: string;
}

const tokens = intOption(0, 1_000_000_000);

export function register(serve: Command, deps: Deps): void {
  const usage = serve.command('usage').description('Usage records of the local platform (offline)');
  dataDirOption(
    usage
      .command('record')
      .description('Record one model call through the metering function (for fixtures and imports)')
      .option('--key <key-id>', 'the API key the call was made with')
      .option('--user <user>', 'the user (id or name), when no key is given')
      .option('--task <task-id>', 'the task the call belongs to')
      .requiredOption('--model <model>', 'model id')
      .option('--operation <name>', 'what kind of call', 'manual')
      .option('--input <tokens>', 'input tokens', tokens, 0)
      .option('--output <tokens>', 'output tokens', tokens, 0)
      .option('--cache-read <tokens>', 'cache-read tokens', tokens, 0)
      .option('--cache-write <tokens>', 'cache-write tokens', tokens, 0)
      .option('--web-searches <n>', 'web searches', tokens, 0)
      .requiredOption('--cost <usd>', 'cost in USD', numberOption(0)),
  ).action(async (opts: RecordOptions, cmd: Command) => {
    if (!opts.key && !opts.user) throw usageError('give --key or --user');
    const [{ meter }, { findUser }, { findKeysByIds }] = await Promise.all([
      import('../../../server/store/meter.js'),
      import('../../../server/services/users.service.js'),
      import('../../../server/store/api-keys.repo.js'),
    ]);
    const recorded = await withStore(dataDirOf(cmd), async (ctx) => {
      let userId: string;
      if (opts.key) {
        const [key] = await findKeysByIds(ctx.db, [opts.key]);
        if (!key) throw new CliError(`no API key ${opts.key}`, EXIT.notFound);
        userId = key.user_id;
      } else {
        const user = await findUser(ctx, opts.user!);
        if (!user) throw new CliError(`no local user "${opts.user}"`, EXIT.notFound);
        userId = user.id;
      }
      const input = {
        apiKeyId: opts.key ?? null,
        userId,
        taskId: opts.task ?? null,
        model: opts.model,
        operation: opts.operation,
        inputTokens: opts.input,
        outputTokens: opts.output,
        cacheReadTokens: opts.cacheRead,
        cacheWriteTokens: opts.cacheWrite,
        webSearches: opts.webSearches,
        costUsd: opts.cost,
      };
      await meter(ctx, input);
      return input;
    });
    deps.io().print(recorded, () => deps.io().success(`recorded a ${recorded.model} call for ${recorded.userId}`));
  });
}
