import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir?: string;
  memory?: boolean;
  adminKey?: string;
  logLevel: string;
  profile?: boolean;
  workers: number;
  chromium?: string;
  maxUploadMb: number;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Points the "local" profile at this server, and makes it current when the current profile has no
 * credentials, so `facet keys list` works in a second terminal with no further step.
 */
async function adoptLocalProfile(deps: Deps, boot: import('../../../server/bootstrap.js').BootstrapFile): Promise<boolean> {
  const store = await deps.config();
  store.update('local', {
    base_url: boot.base_url,
    access_token: boot.access_token,
    ...(boot.api_key ? { api_key: boot.api_key } : {}),
    ...(boot.admin_key ? { admin_key: boot.admin_key } : {}),
  });
  const current = store.currentProfile;
  const currentHasCredentials = current && current !== 'local' && (store.profile(current)?.api_key || store.profile(current)?.access_token);
  if (!currentHasCredentials) store.setCurrentProfile('local');
  return !currentHasCredentials;
}

export async function run(opts: ServeOptions, deps: Deps): Promise<void> {
  const [{ startServer }, { resolveDataDir }] = await Promise.all([import('../../../server/server.js'), import('../../../server/data-dir.js')]);
  const dataDir = opts.memory ? undefined : resolveDataDir(opts.dataDir);
  const server = await startServer({
    host: opts.host,
    port: opts.port,
    dataDir,
    memory: opts.memory,
    adminKey: opts.adminKey ?? deps.env.FACET_ADMIN_KEY_SERVE,
    logLevel: opts.logLevel,
    version: deps.version,
    workers: opts.workers,
    chromiumPath: opts.chromium ?? deps.env.FACET_CHROMIUM,
    maxUploadMb: opts.maxUploadMb,
  });
  const io = deps.io();
  const boot = server.bootstrap.data;
  const current = opts.profile === false ? false : await adoptLocalProfile(deps, boot);
  const err = deps.streams.stderr;
  err.write(`facet serve: listening on ${server.url}\n`);
  err.write(`  data: ${dataDir ?? '(in memory: nothing is kept)'}\n`);
  if (server.bootstrap.created || opts.memory) {
    err.write('  first start: created the admin user and its credentials\n');
    err.write(`    user_id       ${boot.user_id}\n`);
    err.write(`    api_key       ${boot.api_key}\n`);
    err.write(`    admin_key     ${boot.admin_key}\n`);
    err.write(`    access_token  ${boot.access_token}\n`);
  }
  if (dataDir) err.write(`  credentials: ${dataDir}/bootstrap.json\n`);
  if (opts.profile !== false) err.write(`  profile "local" ${current ? 'is current' : 'is set up (facet config use local)'}: try \`facet keys list\` in another terminal\n`);
  if (deps.globals().json) io.printJson({ url: server.url, data_dir: dataDir ?? null, ...boot });

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      err.write(`facet serve: ${signal}, finishing in-flight requests…\n`);
      server.close().then(resolve, (e) => {
        err.write(`facet serve: shutdown error: ${(e as Error).message}\n`);
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  err.write('facet serve: stopped\n');
}

export function register(program: Command, deps: Deps): Command {
  return program
    .command('serve')
    .description('Run the local platform: the whole API on this machine, persistent, offline')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', intOption(0, 65535), 8787)
    .option('--data-dir <dir>', 'where records and files live (default: FACET_DATA_DIR or the OS data dir)')
    .option('--memory', 'keep everything in memory; nothing survives a restart')
    .option('--admin-key <key>', 'the deployment admin key for X-Admin-Key (default: generated once)')
    .addOption(
      new Option('--log-level <level>', 'structured log level (JSON lines on stdout)')
        .default('info')
        .argParser((v) => {
          if (!LEVELS.includes(v)) throw new InvalidArgumentError(`one of ${LEVELS.join(', ')}`);
          return v;
        }),
    )
    .option('--no-profile', 'do not set up the "local" CLI profile')
    .option('--workers <n>', 'async tasks run at once (1-64)', intOption(1, 64), 2)
    .option('--chromium <path>', 'Chromium for screenshot tasks (default: FACET_CHROMIUM or /usr/bin/chromium)')
    .option('--max-upload-mb <n>', 'largest accepted upload per file, in MiB (1-1024)', intOption(1, 1024), 20)
    .addHelpText(
      'after',
      `
Examples:
  $ facet serve                               # http://127.0.0.1:8787, data in the OS data dir
  $ facet serve --port 0 --data-dir ./data    # a free port, data here
  $ facet serve --memory --log-level warn
  $ facet serve --workers 4 --chromium /usr/bin/chromium-browser`,
    )
    .action((opts: ServeOptions) => run(opts, deps));
}
