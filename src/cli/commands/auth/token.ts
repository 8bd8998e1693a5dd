import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';

type Kind = 'api-key' | 'access-token' | 'admin-key';

/**
 * Prints the raw secret the profile would send, for scripts (`gh auth token`): the one place the
 * CLI shows a whole credential after creation, and only on explicit request. Whatever wins for a
 * call wins here too: flag, then environment, then the config file.
 */
export async function run(opts: { type?: Kind }, deps: Deps): Promise<void> {
  const s = await deps.settings();
  const values: Record<Kind, { value?: string; source?: string }> = {
    'api-key': { value: s.apiKey, source: s.sources.api_key },
    'access-token': { value: s.accessToken, source: s.sources.access_token },
    'admin-key': { value: s.adminKey, source: s.sources.admin_key },
  };
  // By default the credential calls use: an API key when there is one, else the access token.
  const kind: Kind = opts.type ?? (s.apiKey ? 'api-key' : 'access-token');
  const { value, source } = values[kind];
  if (!value) {
    throw new CliError(
      `profile "${s.profileName}" has no ${opts.type ? kind.replace('-', ' ') : 'API key or access token'}`,
      EXIT.auth,
      'run `facet login`, or `facet serve` for a local platform',
    );
  }
  const io = deps.io();
  io.print({ profile: s.profileName, type: kind, source: source === 'profile' ? 'config' : source, token: value }, () =>
    io.write(value + '\n'),
  );
}

export function register(auth: Command, deps: Deps): void {
  auth
    .command('token')
    .description("Print the profile's raw credential (API key, else access token) for scripts")
    .addOption(new Option('--type <type>', 'which credential').choices(['api-key', 'access-token', 'admin-key']))
    .addHelpText(
      'after',
      `
Examples:
  $ curl -H "Authorization: Bearer $(facet auth token)" http://127.0.0.1:8787/v2/livedocs
  $ facet --profile ci auth token --type admin-key`,
    )
    .action((opts: { type?: Kind }) => run(opts, deps));
}
