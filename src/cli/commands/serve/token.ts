import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { intOption } from '../../io/parse.js';
import { dataDirOf, dataDirOption, withStore } from './offline.js';

export function register(serve: Command, deps: Deps): void {
  dataDirOption(
    serve
      .command('token')
      .argument('<user>', 'user id or name')
      .description('Mint a signed access token for a local user (offline); prints the token')
      .option('--ttl <seconds>', 'lifetime in seconds (default 30 days)', intOption(60, 366 * 86_400), 30 * 86_400)
      .addHelpText(
        'after',
        '\nExample:\n  $ FACET_ACCESS_TOKEN=$(facet serve token alice) facet keys create --name alice-ci',
      ),
  ).action(async (who: string, opts: { ttl: number }, cmd: Command) => {
    const { findUser, issueAccessToken } = await import('../../../server/services/users.service.js');
    const { LOCAL_ADMIN } = await import('../../../server/services/audit.service.js');
    const result = await withStore(dataDirOf(cmd), async (ctx) => {
      const user = await findUser(ctx, who);
      if (!user) throw new CliError(`no local user "${who}"`, EXIT.notFound, 'see `facet serve users list`');
      return { user_id: user.id, ...(await issueAccessToken(ctx, user.id, opts.ttl, LOCAL_ADMIN)) };
    });
    deps
      .io()
      .print({ user_id: result.user_id, access_token: result.token, expires_at: result.expiresAt }, () =>
        deps.io().write(result.token + '\n'),
      );
  });
}
