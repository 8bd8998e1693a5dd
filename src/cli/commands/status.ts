import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { CliError, EXIT } from '../exit-codes.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const ENV_NAMES = {
  base_url: 'FACET_BASE_URL',
  api_key: 'FACET_API_KEY',
  access_token: 'FACET_ACCESS_TOKEN',
  admin_key: 'FACET_ADMIN_KEY',
} as const;

/** Where a setting came from, in the words a user can act on. */
function origin(source: string | undefined, key: keyof typeof ENV_NAMES): string {
  switch (source) {
    case 'flag':
      return 'flag';
    case 'env':
      return `env ${ENV_NAMES[key]}`;
    case 'profile':
      return 'config file';
    case 'default':
      return 'default';
    default:
      return 'none';
  }
}

function isLocalHost(baseUrl: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * One line per check with a pass/fail mark, as `gh auth status` and `flutter doctor` do: the
 * profile and where its credentials come from, the server, who the credentials belong to, its
 * version, and for a platform on this machine what its engines need; then every other profile's
 * server and credentials, unless one profile was named (--profile, FACET_PROFILE) or --active is
 * given. Exit 0 only when all pass.
 */
export async function run(deps: Deps, opts: { active?: boolean } = {}): Promise<void> {
  const [settings, store] = await Promise.all([deps.settings(), deps.config()]);
  const checks: Check[] = [];
  const profileFrom = deps.globals().profile
    ? 'flag --profile'
    : deps.env.FACET_PROFILE
      ? 'env FACET_PROFILE'
      : store.currentProfile
        ? `current in ${store.path}`
        : 'default';
  const s = settings.sources;
  const creds = [
    `API key from ${origin(s.api_key, 'api_key')}`,
    `access token from ${origin(s.access_token, 'access_token')}`,
    `admin key from ${origin(s.admin_key, 'admin_key')}`,
  ].join(', ');
  const hasCredentials = Boolean(settings.apiKey || settings.accessToken);
  checks.push({
    name: 'profile',
    ok: hasCredentials,
    detail: `profile "${settings.profileName}" (${profileFrom}); base URL from ${origin(s.base_url, 'base_url')}; ${creds}${hasCredentials ? '' : ' — no credentials: run `facet login`'}`,
  });

  const api = await deps.api('keys', 'system');
  let version: string | undefined;
  const started = performance.now();
  try {
    const health = await api.system.health();
    version = health.version;
    checks.push({
      name: 'server',
      ok: true,
      detail: `${settings.baseUrl} answers (/healthz ${Math.round(performance.now() - started)} ms)`,
    });
  } catch (e) {
    checks.push({ name: 'server', ok: false, detail: `${settings.baseUrl} does not answer: ${(e as Error).message}` });
  }

  if (!version)
    checks.push({ name: 'credentials', ok: false, detail: 'credentials not checked: the server does not answer' });
  else if (!hasCredentials) checks.push({ name: 'credentials', ok: false, detail: 'no credentials to check' });
  else {
    try {
      const who = await api.keys.whoami();
      checks.push({
        name: 'credentials',
        ok: true,
        detail: `logged in as ${who.user.name} (${who.user.id}, ${who.user.role}) with ${who.via === 'key' ? 'an API key' : 'an access token'}`,
      });
    } catch (e) {
      const err = e as Error & { code?: string };
      checks.push({
        name: 'credentials',
        ok: false,
        detail: `credentials refused: ${err.message}${err.code ? ` (${err.code})` : ''}`,
      });
    }
  }

  checks.push(
    version
      ? {
          name: 'version',
          ok: true,
          detail: `server version ${version}${version === deps.version ? '' : ` (this CLI is ${deps.version})`}`,
        }
      : { name: 'version', ok: false, detail: 'server version unknown' },
  );

  if (isLocalHost(settings.baseUrl)) {
    const { hostChecks } = await import('./serve/host-checks.js');
    checks.push(...(await hostChecks(deps.env)));
  }

  // A profile named on the command line or in the environment is the one asked about; otherwise every profile.
  const g = deps.globals();
  const oneProfile =
    opts.active || Boolean(g.profile || g.baseUrl || deps.env.FACET_PROFILE || deps.env.FACET_BASE_URL);
  const others = oneProfile
    ? []
    : await (await import('./status-profiles.js')).checkOtherProfiles(deps, settings.profileName);

  const io = deps.io();
  const all = [...checks, ...others];
  const ok = all.every((c) => c.ok);
  io.print({ ok, profile: settings.profileName, base_url: settings.baseUrl, checks, profiles: others }, () => {
    for (const c of checks) io.write(`${c.ok ? io.c.green('✓') : io.c.red('✗')} ${c.detail}\n`);
    if (others.length) io.write(`\nOther profiles (facet config use NAME):\n`);
    for (const c of others) io.write(`${c.ok ? io.c.green('✓') : io.c.red('✗')} ${c.detail}\n`);
  });
  const failed = all.filter((c) => !c.ok).length;
  if (failed > 0)
    throw new CliError(
      `${failed} of ${all.length} checks failed${others.some((c) => !c.ok) ? ' (--active checks only the profile in use)' : ''}`,
      EXIT.failure,
    );
}

export function register(program: Command, deps: Deps): void {
  program
    .command('status')
    .description(
      'Check the profile, its credentials, the server and (for a local platform) Chromium and fonts, then every other profile; exit 0 when all pass',
    )
    .option('--active', 'check only the profile in use')
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet status\n  $ facet status --active\n  $ facet status --json --jq '.checks[] | select(.ok | not) | .detail'",
    )
    .action((opts: { active?: boolean }) => run(deps, opts));
}
