import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { dataDirOf, dataDirOption, withStore } from './offline.js';

/**
 * LiveDoc sharing on the local platform: the spec has no sharing endpoint, so the platform's
 * operator shares a LiveDoc with another local user here (docs/decisions.md "LiveDocs").
 */
export function register(serve: Command, deps: Deps): void {
  dataDirOption(
    serve
      .command('share')
      .argument('<livedoc>', 'the LiveDoc id (ld_…)')
      .argument('<user>', 'the user to share it with (id or name)')
      .description('Share a LiveDoc with another local user (read and search; offline, on the data dir)')
      .option('--revoke', 'stop sharing it with that user')
      .addHelpText(
        'after',
        '\nExamples:\n  $ facet serve share ld_0123456789abcdef alice\n  $ facet serve share ld_0123456789abcdef alice --revoke',
      ),
  ).action(async (livedoc: string, userRef: string, opts: { revoke?: boolean }, cmd: Command) => {
    const [{ findUser }, repo] = await Promise.all([
      import('../../../server/services/users.service.js'),
      import('../../../server/store/livedocs.repo.js'),
    ]);
    const result = await withStore(dataDirOf(cmd), async (ctx) => {
      const doc = await repo.findLiveDoc(ctx.db, livedoc);
      if (!doc) throw new CliError(`no LiveDoc ${livedoc}`, EXIT.notFound);
      const user = await findUser(ctx, userRef);
      if (!user) throw new CliError(`no user ${userRef}`, EXIT.notFound);
      if (user.id === doc.owner_id) throw new CliError(`${user.name} owns ${livedoc} already`, EXIT.usage);
      if (opts.revoke) await repo.unshare(ctx.db, doc.id, user.id);
      else await repo.share(ctx.db, doc.id, user.id, ctx.now().toISOString());
      const { recordAudit, LOCAL_ADMIN } = await import('../../../server/services/audit.service.js');
      await recordAudit(ctx, LOCAL_ADMIN, {
        action: opts.revoke ? 'livedoc.unshared' : 'livedoc.shared',
        targetType: 'livedoc',
        targetId: doc.id,
        subjectUserId: doc.owner_id,
        before: { shared_with: opts.revoke ? user.id : null },
        after: { shared_with: opts.revoke ? null : user.id },
      });
      return { livedoc_short_id: doc.id, user_id: user.id, user_name: user.name, shared: !opts.revoke };
    });
    const io = deps.io();
    io.print(result, () =>
      io.success(
        `${result.shared ? 'shared' : 'stopped sharing'} ${result.livedoc_short_id} ${result.shared ? 'with' : 'with'} ${result.user_name}`,
      ),
    );
  });
}
