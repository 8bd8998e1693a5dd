import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, expect } from 'vitest';
import type { JournalEntry } from '../../src/server/http/response-journal.js';
import { createTestDatabase, dropTestDatabase } from './postgres.js';
import { createOpenApiChecker, type OpenApiDocument } from './openapi-check.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(ROOT, 'bin/facet.js');

export interface Bootstrap {
  base_url: string;
  user_id: string;
  access_token: string;
  api_key: string;
  admin_key: string;
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Set when the helper killed the command for running past its timeout. */
  timedOut?: boolean;
}

/**
 * Asserts that one CLI step succeeded and hands its result on, so a flow never goes on from a step
 * that failed: on failure the message shows the exit code, stderr and whether the step was killed.
 */
export function ok(r: CliResult): CliResult {
  const why = r.timedOut ? 'killed by the test helper after its timeout' : `exit ${r.exitCode}`;
  expect(r.exitCode, `${why}\nstderr: ${r.stderr}\nstdout: ${r.stdout}`).toBe(0);
  return r;
}

/** The JSON a successful step printed. */
export function okJson<T = any>(r: CliResult): T {
  return JSON.parse(ok(r).stdout) as T;
}

export interface Platform {
  url: string;
  dataDir: string;
  configDir: string;
  boot: Bootstrap;
  /** The server process, for reading its /proc status. */
  pid: number;
  /** The responses this platform has sent so far, oldest first (its response journal), for failure reports. */
  responses(): JournalEntry[];
  /** Runs the built CLI as a process with this platform's config dir; never throws on exit codes. */
  cli(
    args: string[],
    options?: { env?: Record<string, string | undefined>; input?: string; timeout?: number },
  ): Promise<CliResult>;
  /** fetch against the platform. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  /** A new server on the same data and config dirs. */
  restart(): Promise<Platform>;
  serverOutput(): string;
  cleanup(): void;
}

const madeDirs: string[] = [];

/**
 * Every response a platform started here sends is journaled by the server (FACET_RESPONSE_JOURNAL)
 * and checked against the OpenAPI document that platform serves, after each test and when the
 * platform stops: whichever client received it (fetch, the CLI, the openai and Anthropic SDKs, an
 * SSE library), a response the document does not describe fails the test.
 */
interface Watched {
  journal: string;
  read: number;
  check: (e: JournalEntry) => string[];
}
const watched = new Set<Watched>();
const violations: string[] = [];

function drain(w: Watched): void {
  if (!existsSync(w.journal)) return;
  const text = readFileSync(w.journal);
  const end = text.lastIndexOf(0x0a) + 1; // whole lines only; a line being written waits for the next look
  if (end <= w.read) return;
  for (const line of text.subarray(w.read, end).toString('utf8').split('\n')) {
    if (line) violations.push(...w.check(JSON.parse(line) as JournalEntry));
  }
  w.read = end;
}

function reportViolations(): void {
  for (const w of watched) drain(w);
  if (violations.length === 0) return;
  const found = violations.splice(0);
  throw new Error(`${found.length} response(s) break the served OpenAPI document:\n${found.slice(0, 20).join('\n')}`);
}

afterEach(reportViolations);
// Temporary dirs go when the test file that made them is done, whatever its tests did.
afterAll(() => {
  try {
    reportViolations();
  } finally {
    watched.clear();
    for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `facet-test-${prefix}-`));
  madeDirs.push(dir);
  return dir;
}

function baseEnv(configDir: string): Record<string, string | undefined> {
  return {
    FACET_CONFIG_DIR: configDir,
    FACET_API_KEY: undefined,
    FACET_BASE_URL: undefined,
    FACET_ACCESS_TOKEN: undefined,
    FACET_ADMIN_KEY: undefined,
    FACET_PROFILE: undefined,
    FACET_DATA_DIR: undefined,
    FACET_ALLOW_FETCH_FROM: undefined,
    NO_COLOR: '1',
    CI: 'true',
    FACET_VALIDATE_RESPONSES: '1',
  };
}

export async function runCli(
  configDir: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeout?: number } = {},
): Promise<CliResult> {
  const r = await execa('node', [BIN, ...args], {
    env: { ...baseEnv(configDir), ...options.env },
    extendEnv: true,
    input: options.input ?? '',
    reject: false,
    stripFinalNewline: false,
    // Longer than the CLI's own 30 s request timeout: a slow step reports its own error instead of
    // being killed silently with nothing on stdout or stderr.
    timeout: options.timeout ?? 90_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr), timedOut: r.timedOut };
}

/** A data dir started on PostgreSQL keeps its database when a test starts a server on it again. */
const databaseOfDataDir = new Map<string, string>();

/**
 * Starts `facet serve` from the built CLI on an ephemeral port with its own data and config dirs,
 * as a user would, and waits until it listens.
 */
export async function startPlatform(
  options: {
    dataDir?: string;
    configDir?: string;
    args?: string[];
    env?: Record<string, string>;
    allowLocalFetch?: boolean;
    databaseUrl?: string;
  } = {},
): Promise<Platform> {
  // FACET_E2E_POSTGRES=1 runs every new platform on its own fresh PostgreSQL database (a restart
  // keeps its database); otherwise a platform uses its data dir's SQLite file unless told.
  if (!options.databaseUrl && options.dataDir && databaseOfDataDir.has(options.dataDir))
    options = { ...options, databaseUrl: databaseOfDataDir.get(options.dataDir) };
  if (!options.databaseUrl && !options.dataDir && process.env.FACET_E2E_POSTGRES === '1')
    options = { ...options, databaseUrl: await createTestDatabase() };
  const database = options.databaseUrl ? ['--database-url', options.databaseUrl] : [];
  const dataDir = options.dataDir ?? tempDir('data');
  if (options.databaseUrl) databaseOfDataDir.set(dataDir, options.databaseUrl);
  const configDir = options.configDir ?? tempDir('config');
  // The tests' own pages live on 127.0.0.1, which the fetch policy refuses: they use the
  // allowance, as a developer would. Tests of the refusal itself pass allowLocalFetch: false.
  const allowance = options.allowLocalFetch === false ? [] : ['--allow-fetch-from', '127.0.0.1'];
  const journal = path.join(tempDir('journal'), 'responses.ndjson');
  const proc: ResultPromise = execa(
    'node',
    [
      BIN,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
      // No balancer to wait for: a stop begins refusing at once (a test's own --drain-delay wins).
      '--drain-delay',
      '0',
      ...database,
      ...allowance,
      ...(options.args ?? []),
    ],
    {
      env: { ...baseEnv(configDir), FACET_RESPONSE_JOURNAL: journal, ...options.env },
      reject: false,
      buffer: false,
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A start on PostgreSQL (migrations) took 14-20 s on the shared 2-core machine under load.
    const timer = setTimeout(() => reject(new Error(`facet serve did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stderr!.on('data', onData);
    proc.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    proc.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`facet serve exited:\n${output}`));
    });
  });
  const boot = JSON.parse(readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiDocument;
  const watch: Watched = { journal, read: 0, check: createOpenApiChecker(document).check };
  watched.add(watch);
  /** A platform that is gone has its last responses checked now, before its journal is forgotten. */
  const unwatch = () => {
    if (!watched.delete(watch)) return;
    drain(watch);
  };
  const waitExit = () =>
    new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())));
  const platform: Platform = {
    url,
    dataDir,
    configDir,
    boot,
    pid: proc.pid!,
    responses: () =>
      existsSync(journal)
        ? readFileSync(journal, 'utf8')
            .split('\n')
            .slice(0, -1) // whole lines only: the last one may still be being written
            .map((line) => JSON.parse(line) as JournalEntry)
        : [],
    // The offline verbs (`serve users …`) of a platform on PostgreSQL reach its database.
    cli: (args, opts) =>
      runCli(
        configDir,
        args,
        options.databaseUrl ? { ...opts, env: { FACET_DATABASE_URL: options.databaseUrl, ...opts?.env } } : opts,
      ),
    fetch: (pathname, init) => fetch(url + pathname, init),
    async stop() {
      proc.kill('SIGTERM');
      await waitExit();
      unwatch();
    },
    async kill() {
      proc.kill('SIGKILL');
      await waitExit();
      unwatch();
    },
    async restart() {
      await platform.stop();
      return startPlatform({ ...options, dataDir, configDir });
    },
    serverOutput: () => output,
    cleanup() {
      unwatch();
      proc.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
      if (options.databaseUrl) void dropTestDatabase(options.databaseUrl).catch(() => undefined);
    },
  };
  return platform;
}
