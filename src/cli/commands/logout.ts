import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { secretsOf } from '../config/profiles.js';

/**
 * Removes credentials, never base URLs: the profiles stay, to log in to again. Deleting a
 * profile is `facet config profiles delete NAME`.
 */
export async function run(opts: { all?: boolean }, deps: Deps): Promise<void> {
  const [store, settings] = await Promise.all([deps.config(), deps.settings()]);
  const names = opts.all ? Object.keys(store.profiles()) : [settings.profileName];
  const emptied = names.filter((name) => secretsOf(store.profile(name)).length > 0);
  for (const name of emptied) store.unset(name, ['api_key', 'access_token', 'admin_key']);
  const io = deps.io();
  io.print({ profiles: emptied, removed: 'credentials' }, () => {
    if (emptied.length === 0)
      io.info(opts.all ? 'no profile holds credentials' : `profile "${settings.profileName}" holds no credentials`);
    else io.success(`removed the credentials of ${emptied.map((n) => `profile "${n}"`).join(', ')}`);
  });
}

export function register(program: Command, deps: Deps): void {
  program
    .command('logout')
    .description("Remove the current profile's credentials (its base URL stays)")
    .option('--all', 'remove the credentials of every profile')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet logout\n  $ facet --profile ci logout\n  $ facet logout --all && facet config profiles delete ci',
    )
    .action((opts: { all?: boolean }) => run(opts, deps));
}
