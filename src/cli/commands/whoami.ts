import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { maskSecret, type ResolvedSettings } from '../config/profiles.js';
import { CliError, EXIT } from '../exit-codes.js';

const credentialLines = (s: ResolvedSettings): Array<[string, string]> => [
  ['profile', s.profileName],
  ['base url', s.baseUrl],
  ['api key', s.apiKey ? `${maskSecret(s.apiKey)} (${s.sources.api_key})` : 'none'],
  ['access token', s.accessToken ? `${maskSecret(s.accessToken)} (${s.sources.access_token})` : 'none'],
  ['admin key', s.adminKey ? `${maskSecret(s.adminKey)} (${s.sources.admin_key})` : 'none'],
];

/**
 * A profile that holds only the deployment admin key has no user behind it, and the server
 * checks that key only together with an administrator's API key (`facet admin usage`): it is
 * shown as what it is, not as "no credentials".
 */
function adminKeyOnly(deps: Deps, settings: ResolvedSettings): void {
  const io = deps.io();
  io.print(
    { profile: settings.profileName, base_url: settings.baseUrl, user: null, admin_key: true, checked: false },
    () => {
      io.fields([['user', 'none: only the deployment admin key'], ...credentialLines(settings)]);
      io.info(
        "note: the server checks the admin key together with an administrator's API key (FACET_API_KEY, or `facet login --api-key-stdin` in this profile)",
      );
    },
  );
}

export async function run(deps: Deps): Promise<void> {
  const settings = await deps.settings();
  if (!settings.apiKey && !settings.accessToken) {
    if (settings.adminKey) return adminKeyOnly(deps, settings);
    throw new CliError(
      `profile "${settings.profileName}" has no credentials`,
      EXIT.auth,
      'run `facet login`, or `facet serve` for a local platform',
    );
  }
  const api = await deps.api('keys');
  const who = await api.keys.whoami();
  const io = deps.io();
  io.print({ profile: settings.profileName, base_url: settings.baseUrl, ...who }, () =>
    io.fields([
      ['user', `${who.user.name} (${who.user.id})`],
      ['role', who.user.role],
      ['plan', who.user.plan],
      ['credits', who.user.credits],
      ...credentialLines(settings),
    ]),
  );
}

export function register(program: Command, deps: Deps): void {
  program
    .command('whoami')
    .description('Show the user and credentials the current profile uses (checked with the server)')
    .action(() => run(deps));
}
