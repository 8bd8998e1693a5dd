import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { CliError, usageError } from '../exit-codes.js';
import { askSecret, askText, readStdin } from '../io/prompt.js';
import type { Profile } from '../config/profiles.js';

export interface LoginOptions {
  apiKeyStdin?: boolean;
  tokenStdin?: boolean;
  adminKeyStdin?: boolean;
  local?: boolean;
  dataDir?: string;
}

/** Credentials from a local platform's bootstrap.json. */
async function fromLocal(dataDir: string | undefined): Promise<Profile> {
  const [{ readBootstrap }, { resolveDataDir }] = await Promise.all([import('../../server/bootstrap.js'), import('../../server/data-dir.js')]);
  const dir = resolveDataDir(dataDir);
  const boot = readBootstrap(dir);
  if (!boot) throw new CliError(`no bootstrap.json in ${dir}`, 1, 'start the local platform once with `facet serve` (or pass --data-dir)');
  return {
    base_url: boot.base_url,
    access_token: boot.access_token,
    ...(boot.api_key ? { api_key: boot.api_key } : {}),
    ...(boot.admin_key ? { admin_key: boot.admin_key } : {}),
  };
}

async function gather(opts: LoginOptions, deps: Deps, currentBase: string): Promise<Profile> {
  if (opts.local) return fromLocal(opts.dataDir);
  const fromStdin = [opts.apiKeyStdin && 'api_key', opts.tokenStdin && 'access_token', opts.adminKeyStdin && 'admin_key'].filter(Boolean);
  if (fromStdin.length > 1) throw usageError('only one of --api-key-stdin, --token-stdin and --admin-key-stdin can read stdin at a time');
  if (fromStdin.length === 1) {
    const value = (await readStdin(deps.streams.stdin)).trim();
    if (!value) throw usageError('stdin was empty');
    return { [fromStdin[0] as string]: value };
  }
  if (!deps.canPrompt()) {
    throw usageError('nothing to log in with', 'pass --api-key-stdin, --token-stdin, --admin-key-stdin or --local');
  }
  const base_url = await askText(deps, 'Platform base URL', '--base-url', currentBase);
  const api_key = await askSecret(deps, 'API key (empty to skip)', '--api-key-stdin');
  const access_token = await askSecret(deps, 'Access token (empty to skip)', '--token-stdin');
  const profile: Profile = { base_url };
  if (api_key) profile.api_key = api_key;
  if (access_token) profile.access_token = access_token;
  if (!api_key && !access_token) throw usageError('give an API key or an access token');
  return profile;
}

export async function run(opts: LoginOptions, deps: Deps): Promise<void> {
  const [store, settings] = await Promise.all([deps.config(), deps.settings()]);
  const globals = deps.globals();
  const profileName = globals.profile ?? (opts.local ? 'local' : settings.profileName);
  const patch = await gather(opts, deps, settings.baseUrl);
  if (globals.baseUrl) patch.base_url = globals.baseUrl;
  const merged = { ...store.profile(profileName), ...patch };

  // Check the credentials before keeping them; an unreachable server only earns a warning.
  const { createApi } = await import('../../client/index.js');
  const api = createApi({
    baseUrl: merged.base_url ?? settings.baseUrl,
    imageBaseUrl: merged.image_base_url,
    credentials: { apiKey: merged.api_key, accessToken: merged.access_token },
  });
  const io = deps.io();
  let who: Awaited<ReturnType<typeof api.keys.whoami>> | undefined;
  if (merged.api_key || merged.access_token) {
    try {
      who = await api.keys.whoami();
    } catch (err) {
      if ((err as Error).name !== 'NetworkError') throw err;
      io.warn(`could not reach ${merged.base_url ?? settings.baseUrl} to check the credentials; saved them anyway`);
    }
  }
  store.update(profileName, patch);
  store.setCurrentProfile(profileName);
  io.print({ profile: profileName, base_url: merged.base_url ?? settings.baseUrl, user: who?.user ?? null }, () =>
    io.success(`logged in${who ? ` as ${who.user.name} (${who.user.id})` : ''}; profile "${profileName}" is now current`),
  );
}

export function register(program: Command, deps: Deps): void {
  program
    .command('login')
    .description('Save credentials in a profile and make it current')
    .option('--api-key-stdin', 'read an API key from stdin')
    .option('--token-stdin', 'read an access token from stdin')
    .option('--admin-key-stdin', 'read the deployment admin key from stdin')
    .option('--local', "adopt a local platform's bootstrap.json (profile \"local\" unless --profile)")
    .option('--data-dir <dir>', 'the local platform data dir, with --local')
    .addHelpText(
      'after',
      `
Examples:
  $ facet login                                   # prompts on a terminal
  $ echo "$FACET_KEY" | facet login --api-key-stdin --base-url https://api.example.com
  $ facet login --local --data-dir ./data`,
    )
    .action((opts: LoginOptions) => run(opts, deps));
}
