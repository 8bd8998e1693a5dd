import type { Command } from 'commander';
import type { Deps } from '../deps.js';

export async function run(opts: { all?: boolean }, deps: Deps): Promise<void> {
  const [store, settings] = await Promise.all([deps.config(), deps.settings()]);
  const name = settings.profileName;
  if (opts.all) store.remove(name);
  else store.unset(name, ['api_key', 'access_token', 'admin_key']);
  const io = deps.io();
  io.print({ profile: name, removed: opts.all ? 'profile' : 'credentials' }, () =>
    io.success(opts.all ? `removed profile "${name}"` : `removed the credentials of profile "${name}"`),
  );
}

export function register(program: Command, deps: Deps): void {
  program
    .command('logout')
    .description("Remove the current profile's credentials (its base URL stays)")
    .option('--all', 'remove the whole profile')
    .action((opts: { all?: boolean }) => run(opts, deps));
}
