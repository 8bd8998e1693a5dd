import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { ServeOptions } from './config.js';
import type { Platform } from './platform.js';
import type { ServeLines } from './serve-lines.js';

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
export function writeStartupReport(lines: ServeLines, s: Startup, format: 'text' | 'json'): void {
  const { opts, server, dataDir } = s;
  const boot = server.bootstrap.data;
  lines.report(`data: ${dataDir ?? '(in memory: nothing is kept)'}`, { data_dir: dataDir ?? null });
  if (s.database)
    lines.report(`records: PostgreSQL ${s.database}; files: ${server.ctx.files.location}`, {
      database: s.database,
      files: server.ctx.files.location,
    });
  else if (server.ctx.files.kind !== 'local')
    lines.report(`files: ${server.ctx.files.location}`, { files: server.ctx.files.location });
  const up = server.ctx.config.upstreams ?? {};
  const upstreams = [
    up.openai && `openai-compatible ${up.openai.baseUrl}`,
    up.anthropic && `anthropic-compatible ${up.anthropic.baseUrl}`,
  ].filter((u): u is string => Boolean(u));
  lines.report(
    `models: ${opts.catalog ? `catalog ${opts.catalog}` : 'shipped catalog'}; upstreams: ${upstreams.join(', ') || 'none (local models only)'}`,
    { catalog: opts.catalog ?? null, upstreams },
  );
  if (server.ctx.config.console)
    lines.report(
      `console: ${server.url}/console (sign in with an API key or the admin key; --no-console turns it off)`,
      { console: `${server.url}/console` },
    );
  const m = server.ctx.config.metrics;
  const metricsUrl = m === 'off' ? null : m === 'main' ? `${server.url}/metrics` : server.metricsUrl;
  lines.report(
    `metrics: ${metricsUrl ?? 'off (--no-metrics)'}${m === 'main' || m === 'off' ? '' : ' (its own listener)'}; instance ${server.ctx.config.instanceId}`,
    {
      metrics: metricsUrl,
    },
  );
  if (server.ctx.config.mcp.enabled)
    lines.report(`mcp: ${server.url}/mcp (Streamable HTTP, Authorization: Bearer <API key>; --no-mcp turns it off)`, {
      mcp: `${server.url}/mcp`,
    });
  if (s.allowed.length > 0)
    lines.report(`fetches may also reach: ${server.ctx.fetchPolicy.allowed.join(', ')}`, {
      allow_fetch_from: server.ctx.fetchPolicy.allowed,
    });
  if (server.bootstrap.created || opts.memory) {
    const credentials = {
      user_id: boot.user_id,
      api_key: boot.api_key,
      admin_key: boot.admin_key,
      access_token: boot.access_token,
    };
    // A JSON line is kept by whatever collects the log: it names where the secrets are, not them.
    if (format === 'json')
      lines.report('first start: created the admin user and its credentials', {
        user_id: boot.user_id,
        credentials: dataDir ? `${dataDir}/bootstrap.json` : 'in memory: printed by facet --json serve only',
      });
    else
      lines.report(
        'first start: created the admin user and its credentials',
        {},
        Object.entries(credentials).map(([k, v]) => `${k.padEnd(13)} ${v}`),
      );
  }
  if (dataDir) lines.report(`credentials: ${dataDir}/bootstrap.json`, { credentials: `${dataDir}/bootstrap.json` });
  if (opts.profile !== false)
    lines.report(
      `profile "local" ${s.current ? 'is current' : 'is set up (facet config use local)'}: try \`facet keys list\` in another terminal`,
      { profile: 'local', current: s.current },
    );
}
