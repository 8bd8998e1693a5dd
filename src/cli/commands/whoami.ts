import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { maskSecret } from '../config/profiles.js';
import { CliError, EXIT } from '../exit-codes.js';

export async function run(deps: Deps): Promise<void> {
  const settings = await deps.settings();
  if (!settings.apiKey && !settings.accessToken) {
    throw new CliError(`profile "${settings.profileName}" has no credentials`, EXIT.auth, 'run `facet login`, or `facet serve` for a local platform');
  }
  const api = await deps.api();
  const who = await api.keys.whoami();
  const io = deps.io();
  io.print({ profile: settings.profileName, base_url: settings.baseUrl, ...who }, () =>
    io.fields([
      ['user', `${who.user.name} (${who.user.id})`],
      ['role', who.user.role],
      ['plan', who.user.plan],
      ['credits', who.user.credits],
      ['profile', settings.profileName],
      ['base url', settings.baseUrl],
      ['api key', settings.apiKey ? `${maskSecret(settings.apiKey)} (${settings.sources.api_key})` : 'none'],
      ['access token', settings.accessToken ? `${maskSecret(settings.accessToken)} (${settings.sources.access_token})` : 'none'],
      ['admin key', settings.adminKey ? `${maskSecret(settings.adminKey)} (${settings.sources.admin_key})` : 'none'],
    ]),
  );
}

export function register(program: Command, deps: Deps): void {
  program
    .command('whoami')
    .description('Show the user and credentials the current profile uses (checked with the server)')
    .action(() => run(deps));
}
