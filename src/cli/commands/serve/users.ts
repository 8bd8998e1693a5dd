import { Argument, Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { dataDirOf, dataDirOption, withStore } from './offline.js';

interface CreateOptions {
  admin?: boolean;
  plan: 'free' | 'paid';
  credits?: number;
  dataDir?: string;
}

export function register(serve: Command, deps: Deps): void {
  const users = serve.command('users').description("Manage the local platform's users (offline, on its data dir)");

  dataDirOption(
    users
      .command('create')
      .argument('<name>', 'user name: letters, digits, . _ @ -')
      .description('Create a local user')
      .option('--admin', 'give the user the admin role')
      .addOption(new Option('--plan <plan>', 'subscription plan').choices(['free', 'paid']).default('free'))
      .option('--credits <n>', 'starting credit balance', intOption(0, 1_000_000_000)),
  ).action(async (name: string, opts: CreateOptions, cmd: Command) => {
    const { createUser, publicUser } = await import('../../../server/services/users.service.js');
    const { LOCAL_ADMIN } = await import('../../../server/services/audit.service.js');
    const user = await withStore(dataDirOf(cmd), (ctx) =>
      createUser(
        ctx,
        { name, role: opts.admin ? 'admin' : 'user', plan: opts.plan, credits: opts.credits },
        LOCAL_ADMIN,
      ),
    );
    const io = deps.io();
    io.print(publicUser(user), () => {
      if (io.stdoutIsTTY) io.success(`created ${user.role} ${user.name}`);
      io.write(user.id + '\n');
    });
  });

  dataDirOption(users.command('list').alias('ls').description('List local users')).action(
    async (_opts: unknown, cmd: Command) => {
      const { listUsers, publicUser } = await import('../../../server/services/users.service.js');
      const rows = (await withStore(dataDirOf(cmd), (ctx) => listUsers(ctx.db))).map(publicUser);
      const io = deps.io();
      io.print(rows, () =>
        io.table(rows, [
          { header: 'ID', value: (u) => u.id },
          { header: 'NAME', value: (u) => u.name },
          { header: 'ROLE', value: (u) => u.role },
          { header: 'PLAN', value: (u) => u.plan },
          { header: 'CREDITS', value: (u) => u.credits },
          { header: 'CREATED', value: (u) => u.created_at },
        ]),
      );
    },
  );

  dataDirOption(
    users
      .command('credits')
      .argument('<name>', 'user name or id')
      .argument('<change>', '+N adds, -N takes (never below 0), =N sets')
      .description("Change a user's credit balance (social search is billed in credits)")
      .addHelpText(
        'after',
        '\nExamples:\n  $ facet serve users credits alice +500\n  $ facet serve users credits alice =0',
      ),
  ).action(async (name: string, change: string, _opts: unknown, cmd: Command) => {
    const { changeCredits } = await import('../../../server/services/credits.service.js');
    const { LOCAL_ADMIN } = await import('../../../server/services/audit.service.js');
    const result = await withStore(dataDirOf(cmd), (ctx) => changeCredits(ctx, name, change, LOCAL_ADMIN));
    const io = deps.io();
    io.print(result, () => io.success(`${result.user}: ${result.before} → ${result.credits} credits`));
  });

  dataDirOption(
    users
      .command('plan')
      .argument('<name>', 'user name or id')
      .addArgument(new Argument('<plan>', 'subscription plan').choices(['free', 'paid']))
      .description("Set a user's plan (paid subscribers are exempt from the social rate limits)"),
  ).action(async (name: string, plan: 'free' | 'paid', _opts: unknown, cmd: Command) => {
    const { setPlan } = await import('../../../server/services/credits.service.js');
    const { LOCAL_ADMIN } = await import('../../../server/services/audit.service.js');
    const result = await withStore(dataDirOf(cmd), (ctx) => setPlan(ctx, name, plan, LOCAL_ADMIN));
    const io = deps.io();
    io.print(result, () => io.success(`${result.user}: plan ${result.plan}`));
  });
}
