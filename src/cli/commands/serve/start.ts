import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { allowFetchFrom, databaseUrl, startOptions, type ServeOptions } from './config.js';
import { startPlatform, stopOnSignal, type Platform } from './platform.js';
import { addStartOptions } from './start-options.js';
import { adoptLocalProfile, writeStartupReport } from './startup-report.js';
import { serveLines, silentLines, type ServeLines } from './serve-lines.js';

/** Applies a --seed fixtures file through the API with the bootstrap credentials; a failure stops the server. */
async function seedPlatform(file: string, server: Platform, deps: Deps): Promise<void> {
  const { seed } = await import('./seed.js');
  const { createTransport } = await import('../../../client/transport.js');
  const boot = server.bootstrap.data;
  const credentials = {
    apiKey: boot.api_key ?? undefined,
    accessToken: boot.access_token,
    adminKey: boot.admin_key ?? undefined,
  };
  await seed(
    file,
    createTransport({ baseUrl: server.url, credentials, userAgent: `facet-cli/${deps.version}` }),
    deps,
  ).catch(async (e) => {
    await server.close({ drainDelayMs: 0 });
    throw e;
  });
}

/** Replaces Node's printer of process warnings (plain text on stderr) with a warn line of the log. */
function warningsThroughLog(log: Platform['log']): void {
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: string }) =>
    log.warn({ warning: { name: w.name, code: w.code, message: w.message } }, `process warning: ${w.message}`),
  );
}

/**
 * JSON mode: a crash (an exception nothing caught, a rejection nothing handled) is one fatal JSON
 * line with its stack, not Node's plain-text trace among the JSON lines; the process still ends with 1.
 */
function crashesAsJson(lines: ServeLines): void {
  const crash = (err: unknown, origin: string) => {
    const e = err instanceof Error ? err : new Error(String(err));
    lines.fatal(`facet serve: crashed (${origin}): ${e.message}`, { err: e });
    process.exit(1);
  };
  process.on('uncaughtException', (err, origin) => crash(err, origin));
  process.on('unhandledRejection', (reason) => crash(reason, 'unhandledRejection'));
}

export async function run(opts: ServeOptions, deps: Deps): Promise<void> {
  const [{ resolveDataDir }, { redactDatabaseUrl }] = await Promise.all([
    import('../../../server/data-dir.js'),
    import('../../../server/store/postgres.js'),
  ]);
  const dataDir = opts.memory ? undefined : resolveDataDir(opts.dataDir);
  const allowed = allowFetchFrom(opts, deps.env);
  const database = databaseUrl(opts, deps.env);
  // Readable lines for a person at a terminal, JSON lines for anything that reads them.
  const pretty = (opts.logFormat ?? (deps.streams.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  const logStream = pretty
    ? (await import('./log-format.js')).readableLog((text) => deps.io().write(text), deps.io().c)
    : undefined;
  const options = startOptions(opts, deps, dataDir);
  // The watchdog writes from its own thread (loop-watch.ts): it is told the format too.
  const loopWatch = options.loopWatch && { ...options.loopWatch, json: !pretty };
  const format = pretty ? 'text' : 'json';
  // Made before the start, so what the start itself says (a data dir made private) is a JSON line too.
  const started: { server?: Platform } = {};
  const always = serveLines(
    deps.streams.stderr,
    format,
    () => started.server?.ctx.config.instanceId ?? options.instanceId,
  );
  if (!pretty) crashesAsJson(always);
  const server = await startPlatform({ ...options, logStream, loopWatch, warn: (text) => always.warn(text) }).catch(
    (err: unknown) => {
      if (pretty) throw err;
      // JSON mode: a start that fails (a port in use, a database refused) is one fatal JSON line too.
      const e = err instanceof Error ? err : new Error(String(err));
      const hint = err instanceof CliError ? err.hint : undefined;
      always.fatal(`facet serve: could not start: ${e.message}`, { err: e, ...(hint ? { hint } : {}) });
      throw new CliError(e.message, err instanceof CliError ? err.exitCode : EXIT.failure, hint, true);
    },
  );
  started.server = server;
  const io = deps.io();
  const boot = server.bootstrap.data;
  const current = opts.profile === false ? false : await adoptLocalProfile(deps, boot, dataDir);
  // -q: the listening line (the address is the one thing a caller needs) and nothing else.
  const lines = deps.globals().quiet ? silentLines : always;
  // Handlers first, then the listening line (see stopOnSignal).
  const stopped = stopOnSignal(server, { stopping: lines, always }, opts.drainTimeout * 1000);
  // JSON lines: Node's own warnings (a deprecation, a listener leak, the database's cache bus) go
  // through the log as JSON too, not as plain text among them.
  if (!pretty) warningsThroughLog(server.log);
  always.info(`facet serve: listening on ${server.url}`, { url: server.url });
  writeStartupReport(
    lines,
    { opts, server, dataDir, database: database && redactDatabaseUrl(database), allowed, current },
    format,
  );
  if (opts.seed) await seedPlatform(opts.seed, server, deps);
  if (deps.globals().json) {
    // Keys are shown when they are made (first start) and never again; bootstrap.json keeps them.
    const fresh = server.bootstrap.created || opts.memory;
    const { api_key, admin_key, ...rest } = boot;
    io.printJson({ url: server.url, data_dir: dataDir ?? null, ...rest, ...(fresh ? { api_key, admin_key } : {}) });
  }

  await stopped;
  lines.info('facet serve: stopped');
  // Work a drain gave up on (a task's storage call riding out an outage) may still hold timers or
  // sockets: stopped is stopped, so the process ends shortly even then.
  setTimeout(() => process.exit(process.exitCode ?? 0), 300).unref();
}

export function register(program: Command, deps: Deps): Command {
  return addStartOptions(
    program.command('serve').description('Run the local platform: the whole API on this machine, persistent, offline'),
  ).action(async (opts: ServeOptions, cmd: Command) => {
    if (opts.exec === undefined) return run(opts, deps);
    const { runExec } = await import('./exec.js');
    return runExec(opts, deps, cmd.getOptionValueSource('port') === 'cli');
  });
}
