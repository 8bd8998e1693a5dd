import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { ServeOptions } from './config.js';
import type { Platform } from './platform.js';

type Bootstrap = Platform['bootstrap']['data'];

/**
 * Points the "local" profile at this server, and makes it current when the current profile has no
 * credentials, so `facet keys list` works in a second terminal with no further step.
 */
export async function adoptLocalProfile(deps: Deps, boot: Bootstrap, dataDir: string | undefined): Promise<boolean> {
  const store = await deps.config();
  store.update('local', {
    base_url: boot.base_url,
    // The offline verbs (`facet serve users …`) work on this server's records while it runs.
    data_dir: dataDir && path.resolve(dataDir),
    access_token: boot.access_token,
    ...(boot.api_key ? { api_key: boot.api_key } : {}),
    ...(boot.admin_key ? { admin_key: boot.admin_key } : {}),
  });
  const current = store.currentProfile;
  const currentHasCredentials =
    current && current !== 'local' && (store.profile(current)?.api_key || store.profile(current)?.access_token);
  if (!currentHasCredentials) store.setCurrentProfile('local');
  return !currentHasCredentials;
}

export interface Startup {
  opts: ServeOptions;
  server: Platform;
  dataDir: string | undefined;
  /** The PostgreSQL URL with its password hidden, when the records are there. */
  database: string | undefined;
  /** The hosts --allow-fetch-from (or its env) let fetches reach. */
  allowed: string[];
  /** Whether "local" became the current profile (false: --no-profile). */
  current: boolean;
}

/** The lines after "listening on": where data lives, models, console, first-start credentials, profile. */
export function writeStartupReport(say: (line: string) => unknown, s: Startup): void {
  const { opts, server, dataDir } = s;
  const boot = server.bootstrap.data;
  say(`  data: ${dataDir ?? '(in memory: nothing is kept)'}\n`);
  if (s.database) say(`  records: PostgreSQL ${s.database}; files: ${server.ctx.files.location}\n`);
  else if (server.ctx.files.kind !== 'local') say(`  files: ${server.ctx.files.location}\n`);
  const up = server.ctx.config.upstreams ?? {};
  say(
    `  models: ${opts.catalog ? `catalog ${opts.catalog}` : 'shipped catalog'}; upstreams: ${[up.openai && `openai-compatible ${up.openai.baseUrl}`, up.anthropic && `anthropic-compatible ${up.anthropic.baseUrl}`].filter(Boolean).join(', ') || 'none (local models only)'}\n`,
  );
  if (server.ctx.config.console)
    say(`  console: ${server.url}/console (sign in with an API key or the admin key; --no-console turns it off)\n`);
  const m = server.ctx.config.metrics;
  say(
    `  metrics: ${m === 'off' ? 'off (--no-metrics)' : m === 'main' ? `${server.url}/metrics` : `${server.metricsUrl} (its own listener)`}; instance ${server.ctx.config.instanceId}\n`,
  );
  if (server.ctx.config.mcp.enabled)
    say(`  mcp: ${server.url}/mcp (Streamable HTTP, Authorization: Bearer <API key>; --no-mcp turns it off)\n`);
  if (s.allowed.length > 0) say(`  fetches may also reach: ${server.ctx.fetchPolicy.allowed.join(', ')}\n`);
  if (server.bootstrap.created || opts.memory) {
    say('  first start: created the admin user and its credentials\n');
    say(`    user_id       ${boot.user_id}\n`);
    say(`    api_key       ${boot.api_key}\n`);
    say(`    admin_key     ${boot.admin_key}\n`);
    say(`    access_token  ${boot.access_token}\n`);
  }
  if (dataDir) say(`  credentials: ${dataDir}/bootstrap.json\n`);
  if (opts.profile !== false)
    say(
      `  profile "local" ${s.current ? 'is current' : 'is set up (facet config use local)'}: try \`facet keys list\` in another terminal\n`,
    );
}
