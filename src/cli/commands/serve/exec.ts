import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { startPlatform } from './platform.js';
import { startOptions, type ServeOptions } from './config.js';
import { packageRoot } from '../../package-root.js';

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGKILL: 137 };

/** Sends a signal to CMD's whole process group (it was started detached, as a group leader). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Runs the command and resolves with its exit code (128+N when signal N ended it). */
function runCommand(command: string, env: NodeJS.ProcessEnv, started: (child: ChildProcess) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    // Through the shell, as Firebase's emulators:exec does: pipes, && and quotes work as typed.
    // In a process group of its own (detached), so a signal reaches everything CMD started: dash
    // does not exec a lone command, and a signal to the shell alone would orphan its children.
    const child = spawn(command, { shell: true, stdio: 'inherit', env, detached: process.platform !== 'win32' });
    started(child);
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? SIGNAL_EXIT[signal ?? ''] ?? EXIT.failure));
  });
}

/**
 * A folder holding a `facet` that runs this very CLI (this Node, this package's bin/facet.js), put
 * first on CMD's PATH: `facet serve --exec 'facet whoami'` works without `npm link`, and CMD's
 * `facet` is the version that started the platform. Private (0700), in the scratch dir.
 */
function facetShimDir(scratch: string): string {
  const dir = path.join(scratch, 'bin');
  mkdirSync(dir, { mode: 0o700 });
  const bin = path.join(packageRoot(), 'bin', 'facet.js');
  if (process.platform === 'win32')
    writeFileSync(path.join(dir, 'facet.cmd'), `@"${process.execPath}" "${bin}" %*\r\n`, { mode: 0o700 });
  else {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    writeFileSync(path.join(dir, 'facet'), `#!/bin/sh\nexec ${q(process.execPath)} ${q(bin)} "$@"\n`, { mode: 0o700 });
  }
  return dir;
}

/**
 * `facet serve --exec CMD`: a throwaway platform for one command, as CI wants it. The platform runs
 * in this process on a free port with a temporary data dir (or --data-dir), its log in a file,
 * CMD gets the platform's URL and credentials in its environment, and this process exits with
 * CMD's code. The CLI's config is left alone: CMD's `facet` calls take everything from FACET_*.
 */
export async function runExec(opts: ServeOptions, deps: Deps, portGiven: boolean): Promise<void> {
  const err = deps.streams.stderr;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'facet-exec-'));
  const dataDir = opts.memory ? undefined : (opts.dataDir ?? path.join(scratch, 'data'));
  const logFile = path.join(scratch, 'serve.log');
  const log = createWriteStream(logFile, { mode: 0o600 });
  let server: Awaited<ReturnType<typeof startPlatform>> | undefined;
  let code: number;
  let failed = true;
  // Ctrl-C (SIGINT from the terminal, which CMD's own group does not receive) and SIGTERM (CI
  // cancelling a job) go to CMD's group; before CMD runs they cancel it. Either way the platform
  // stops and the temporary dir goes: the handlers keep Node from dying on the spot.
  let child: ChildProcess | undefined;
  let stopped: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stopped ??= signal;
    if (child) signalGroup(child, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    server = await startPlatform({
      ...startOptions(opts, deps, dataDir),
      port: portGiven ? opts.port : 0,
      logStream: log,
      // A platform for one command: no balancer to wait for when it stops.
      drainDelayMs: 0,
    });
    const boot = server.bootstrap.data;
    err.write(`facet serve --exec: platform on ${server.url}, data in ${dataDir ?? '(memory)'}\n`);
    const credentials = {
      apiKey: boot.api_key ?? undefined,
      accessToken: boot.access_token,
      adminKey: boot.admin_key ?? undefined,
    };
    const env: NodeJS.ProcessEnv = {
      ...deps.env,
      FACET_BASE_URL: server.url,
      // The image service is this same server: a profile's image_base_url must not send CMD elsewhere.
      FACET_IMAGE_BASE_URL: server.url,
      FACET_API_KEY: credentials.apiKey,
      FACET_ACCESS_TOKEN: credentials.accessToken,
      FACET_ADMIN_KEY: credentials.adminKey,
      // `facet serve users create …` inside CMD then works on this platform's data dir.
      FACET_DATA_DIR: dataDir,
      PATH: [facetShimDir(scratch), deps.env.PATH ?? deps.env.Path].filter(Boolean).join(path.delimiter),
    };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    if (opts.seed) {
      const [{ createTransport }, { seed }] = await Promise.all([
        import('../../../client/transport.js'),
        import('./seed.js'),
      ]);
      const transport = createTransport({
        baseUrl: server.url,
        credentials,
        userAgent: `facet-cli/${deps.version}`,
      });
      await seed(opts.seed, transport, deps);
    }
    if (stopped) code = SIGNAL_EXIT[stopped];
    else code = await runCommand(opts.exec!, env, (c) => (child = c));
    failed = code !== 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (server)
      await server.close().catch((e: Error) => err.write(`facet serve --exec: shutdown error: ${e.message}\n`));
    await new Promise<void>((resolve) => log.end(resolve));
    if (failed) {
      const text = readFileSync(logFile, 'utf8');
      err.write(
        text
          ? `facet serve --exec: the platform's log:\n${text}${text.endsWith('\n') ? '' : '\n'}`
          : "facet serve --exec: the platform's log is empty\n",
      );
    }
    // The scratch dir holds the log and, unless --data-dir named one to keep, the data dir.
    rmSync(scratch, { recursive: true, force: true });
  }
  if (code !== 0) throw new CliError(`command exited with code ${code}: ${opts.exec}`, code);
}
