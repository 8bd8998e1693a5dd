import { CliError, EXIT, usageError } from '../../exit-codes.js';
import type { ServeLines } from './serve-lines.js';

type StartOptions = import('../../../server/start-options.js').StartOptions;
export type Platform = Awaited<ReturnType<typeof import('../../../server/server.js').startServer>>;

/** Starts the platform; a malformed allowance is the caller's input: a usage error that names it. */
export async function startPlatform(options: StartOptions): Promise<Platform> {
  const { startServer } = await import('../../../server/server.js');
  return startServer(options).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES') throw portError(e.code, options.host, options.port);
    throw e.name === 'InvalidAllowance' ||
      e.name === 'InvalidJobLimits' ||
      /^--(public-url|instance-id) /.test(e.message)
      ? usageError(e.message)
      : e;
  });
}

/** A port that cannot be had says which and what to do, not a raw `listen EADDRINUSE`. */
function portError(code: string, host: string | undefined, port: number | undefined): CliError {
  const where = `port ${port ?? '?'} on ${host ?? '127.0.0.1'}`;
  const why =
    code === 'EADDRINUSE'
      ? `${where} is in use (another server is listening there)`
      : `${where} needs privileges this user does not have`;
  return new CliError(
    `cannot listen: ${why}`,
    EXIT.failure,
    'pick another with --port N (`npm start -- --port N` from a checkout), or --port 0 for any free port',
  );
}

/** Past the drain timeout, the process is given this long to end on its own before it is ended. */
const EXIT_GRACE_MS = 800;

/**
 * Closes the server on SIGINT or SIGTERM, finishing in-flight requests; resolves once it is closed.
 * Call it before announcing the address: a supervisor that sends SIGTERM as soon as it reads that
 * line must get a clean stop, never Node's default of dying on the spot. Whatever still holds the
 * process past `drainTimeoutMs` (a job that ignores its abort, a pool that does not end), it exits
 * then, within the drain timeout plus a second: an orchestrator's grace period is not overrun.
 */
export function stopOnSignal(
  server: Platform,
  lines: { stopping: ServeLines; always: ServeLines },
  drainTimeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      // Unref'd: it ends a process that would not end, and never keeps one alive.
      setTimeout(() => {
        lines.always.warn(
          `facet serve: still stopping ${drainTimeoutMs + EXIT_GRACE_MS} ms after ${signal} (--drain-timeout ${drainTimeoutMs / 1000}); exiting now`,
        );
        process.exit(EXIT.failure);
      }, drainTimeoutMs + EXIT_GRACE_MS).unref();
      lines.stopping.info(`facet serve: ${signal}, finishing in-flight requests…`, { signal });
      // Ctrl-C is a person at a terminal, not an orchestrator: no balancer to wait for.
      server.close(signal === 'SIGINT' ? { drainDelayMs: 0 } : {}).then(resolve, (e) => {
        lines.always.warn(`facet serve: shutdown error: ${(e as Error).message}`);
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
