import { Option, type Command } from 'commander';
import type { Deps } from '../deps.js';
import type { Api } from '../../client/index.js';
import { CliError, EXIT, exitCodeForStatus, usageError } from '../exit-codes.js';
import { askSecret, askText, confirm, readStdin } from '../io/prompt.js';
import { DEFAULT_BASE_URL, looksMasked, secretsOf, type Profile } from '../config/profiles.js';

export interface LoginOptions {
  apiKeyStdin?: boolean;
  tokenStdin?: boolean;
  adminKeyStdin?: boolean;
  local?: boolean;
  dataDir?: string;
  /** Replace the credentials of the current profile without asking. */
  force?: boolean;
  /** false with --no-verify: save the credentials without checking them with the server. */
  verify?: boolean;
}

/** Credentials from a local platform's bootstrap.json. */
async function fromLocal(dataDir: string | undefined): Promise<Profile> {
  const [{ readBootstrap }, { resolveDataDir }] = await Promise.all([
    import('../../server/bootstrap.js'),
    import('../../server/data-dir.js'),
  ]);
  const dir = resolveDataDir(dataDir);
  const boot = readBootstrap(dir);
  if (!boot)
    throw new CliError(
      `no bootstrap.json in ${dir}`,
      1,
      'start the local platform once with `facet serve` (or pass --data-dir)',
    );
  return {
    base_url: boot.base_url,
    access_token: boot.access_token,
    ...(boot.api_key ? { api_key: boot.api_key } : {}),
    ...(boot.admin_key ? { admin_key: boot.admin_key } : {}),
  };
}

/** A pasted mask (`config get` output) would replace a working secret with one that cannot work. */
function refuseMasked(patch: Profile): void {
  for (const k of secretsOf(patch)) {
    if (looksMasked(patch[k]!)) {
      throw usageError(
        `the ${k} given is a masked value (as \`facet config get\` prints it), not the secret itself`,
        'pass the full value, as it was shown when it was created',
      );
    }
  }
}

async function gather(opts: LoginOptions, deps: Deps, currentBase: string): Promise<Profile> {
  if (opts.local) return fromLocal(opts.dataDir);
  const fromStdin = [
    opts.apiKeyStdin && 'api_key',
    opts.tokenStdin && 'access_token',
    opts.adminKeyStdin && 'admin_key',
  ].filter(Boolean);
  if (fromStdin.length > 1)
    throw usageError('only one of --api-key-stdin, --token-stdin and --admin-key-stdin can read stdin at a time');
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

/**
 * The profile as it will be saved. Credentials belong to the server that issued them: a login
 * that points the profile at another server drops the old server's secrets instead of mixing them.
 */
function nextProfile(existing: Profile | undefined, patch: Profile): Profile {
  const movesServer = patch.base_url !== undefined && patch.base_url !== (existing?.base_url ?? DEFAULT_BASE_URL);
  return movesServer ? { ...patch } : { ...existing, ...patch };
}

/**
 * A login into a profile the user did not name (the current one) must not silently replace the
 * credentials it holds: it asks on a terminal, and otherwise needs --profile or --force.
 */
async function guardOverwrite(
  deps: Deps,
  name: string,
  existing: Profile | undefined,
  next: Profile,
  opts: LoginOptions,
  named: boolean,
): Promise<void> {
  const lost = secretsOf(existing).filter((k) => next[k] !== existing![k]);
  if (lost.length === 0 || named || opts.force || deps.globals().yes) return;
  const what = `profile "${name}" holds ${lost.join(', ')} for ${existing!.base_url ?? DEFAULT_BASE_URL}`;
  if (!deps.canPrompt()) {
    throw usageError(
      `${what}, which this login would replace: nothing saved`,
      'pass --profile NAME to log in under another profile, or --force to replace them',
    );
  }
  await confirm(deps, `${what}. Replace ${lost.length === 1 ? 'it' : 'them'}?`);
}

type Who = Awaited<ReturnType<Api['keys']['whoami']>>;

/**
 * Checks every credential of the login against the server before any is saved: one that the
 * server refuses, or that cannot be checked because the server does not answer, is not kept.
 */
async function verify(
  baseUrl: string,
  next: Profile,
  patch: Profile,
  env: NodeJS.ProcessEnv,
): Promise<Who | undefined> {
  const { createApi } = await import('../../client/index.js');
  const apiWith = (credentials: { apiKey?: string; accessToken?: string; adminKey?: string }) =>
    createApi({ baseUrl, imageBaseUrl: next.image_base_url, credentials, retries: 0 }, ['keys', 'admin']);
  const checks: Array<[string, () => Promise<Who | undefined>]> = [];
  if (patch.api_key) checks.push(['API key', async () => (await apiWith({ apiKey: patch.api_key })).keys.whoami()]);
  if (patch.access_token)
    checks.push(['access token', async () => (await apiWith({ accessToken: patch.access_token })).keys.whoami()]);
  if (patch.admin_key) {
    // The server checks the admin key only beside an administrator's API key (the usage report).
    const apiKey = next.api_key ?? env.FACET_API_KEY;
    if (!apiKey) {
      throw new CliError(
        "the admin key can only be checked together with an administrator's API key: nothing saved",
        EXIT.usage,
        'log in with the API key first (same profile), set FACET_API_KEY, or pass --no-verify',
      );
    }
    checks.push([
      'admin key',
      async () => void (await (await apiWith({ apiKey, adminKey: patch.admin_key })).admin.usage({ limit: 1 })),
    ]);
  }
  let who: Who | undefined;
  for (const [label, check] of checks) {
    try {
      who = (await check()) ?? who;
    } catch (err) {
      const e = err as Error & { status?: number; code?: string };
      if (e.name === 'NetworkError') {
        throw new CliError(
          `could not reach ${baseUrl} to check the ${label}: nothing saved`,
          EXIT.failure,
          'start the platform first, or pass --no-verify to save the credentials unchecked',
        );
      }
      if (e.name === 'ApiError') {
        throw new CliError(
          `${baseUrl} refused the ${label}: ${e.message} (code ${e.code}, HTTP ${e.status}): nothing saved`,
          exitCodeForStatus(e.status!),
        );
      }
      throw err;
    }
  }
  return who;
}

export async function run(opts: LoginOptions, deps: Deps): Promise<void> {
  const [store, settings] = await Promise.all([deps.config(), deps.settings()]);
  const globals = deps.globals();
  // A profile named by --profile, FACET_PROFILE or --local ("local") is the user's explicit choice.
  const named = Boolean(globals.profile || deps.env.FACET_PROFILE || opts.local);
  const profileName = globals.profile ?? (opts.local ? 'local' : settings.profileName);
  const patch = await gather(opts, deps, settings.baseUrl);
  if (globals.baseUrl) patch.base_url = globals.baseUrl;
  refuseMasked(patch);
  const existing = store.profile(profileName);
  const next = nextProfile(existing, patch);
  await guardOverwrite(deps, profileName, existing, next, opts, named);

  const io = deps.io();
  const baseUrl = next.base_url ?? DEFAULT_BASE_URL;
  let who: Who | undefined;
  if (opts.verify !== false) who = await verify(baseUrl, next, patch, deps.env);
  else io.warn(`saved without checking the credentials against ${baseUrl} (--no-verify)`);
  store.replace(profileName, next);
  store.setCurrentProfile(profileName);
  io.print({ profile: profileName, base_url: baseUrl, user: who?.user ?? null, verified: opts.verify !== false }, () =>
    io.success(
      `logged in${who ? ` as ${who.user.name} (${who.user.id})` : ''}; profile "${profileName}" is now current`,
    ),
  );
}

export function register(program: Command, deps: Deps): void {
  program
    .command('login')
    .description('Save credentials in a profile and make it current')
    .option('--api-key-stdin', 'read an API key from stdin')
    .option('--token-stdin', 'read an access token from stdin')
    .option('--admin-key-stdin', 'read the deployment admin key from stdin')
    .addOption(
      new Option('--local', 'adopt a local platform\'s bootstrap.json (profile "local" unless --profile)').conflicts([
        'apiKeyStdin',
        'tokenStdin',
        'adminKeyStdin',
      ]),
    )
    .option('--data-dir <dir>', 'the local platform data dir, with --local')
    .option('--force', "replace the current profile's credentials without asking")
    .option('--no-verify', 'save the credentials without checking them with the server')
    .addHelpText(
      'after',
      `
Examples:
  $ facet login                                   # prompts on a terminal
  $ echo "$FACET_KEY" | facet --profile prod login --api-key-stdin --base-url https://api.example.com
  $ facet login --local --data-dir ./data`,
    )
    .action((opts: LoginOptions) => run(opts, deps));
}
