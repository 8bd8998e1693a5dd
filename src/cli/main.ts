import { Command, CommanderError, Option } from 'commander';
import { GROUPS } from './groups.js';
import { CliError, EXIT, exitCodeForStatus } from './exit-codes.js';
import type { ApiError } from '../client/errors.js';
import type { Deps, GlobalOptions, Streams } from './deps.js';
import type { IO } from './io/output.js';
import { pagerCommand as pagerOf } from './io/pager.js';

declare const __FACET_VERSION__: string | undefined;
export const VERSION = typeof __FACET_VERSION__ === 'string' ? __FACET_VERSION__ : '0.0.0-dev';

/** Global options that take a value: needed to find the group name in argv without parsing. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--jq']);

/**
 * The group an argv names: its first word that is not a global option or its value. `jsonWord` is
 * the lone word after `--json` (io/json-shape.ts): a field list unless it names a group, so
 * `facet --json id keys list` finds `keys`, as gh reads `gh --json … pr list`.
 */
function groupFromArgv(args: string[], jsonWord?: number): string | undefined {
  let helpFor = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return undefined;
    if (i === jsonWord && !GROUPS.some((g) => g.name === a)) continue;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (a === 'help' && !helpFor)
      helpFor = true; // `facet help keys` needs the keys group
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

export function createProgram(deps: Deps): Command {
  const program = new Command('facet')
    .description('CLI for the facet platform API, and `facet serve`: the same API running locally')
    .version(deps.version, '-V, --version')
    .option('--profile <name>', 'use this profile instead of the current one')
    .option('--base-url <url>', 'platform base URL for this call')
    .option(
      '--json',
      'print the response data as JSON (stable, for scripts); --json id,name (or --json=id) keeps those fields',
    )
    .option('--jq <expr>', 'filter the JSON output through a jq expression (implies --json; strings print raw)')
    .option('-q, --quiet', 'print nothing but the data')
    .option('--wide', 'tables: every column, none cut (a narrow terminal leaves low-priority columns out)')
    .option('--no-color', 'no colours')
    .option('--no-input', 'never prompt; a missing value is a usage error')
    .option('--debug', 'trace requests on stderr (credentials redacted)')
    .option('-y, --yes', 'answer yes to confirmations')
    .showHelpAfterError('(run with --help for usage)')
    // Every command's help ends with the global options it honours (they are the program's own).
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText(
      'after',
      `
Examples:
  $ facet serve                      # start the local platform (sets up the "local" profile)
  $ facet keys list                  # in another terminal
  $ facet --json admin usage | jq .totals

Environment variables: \`facet help environment\`

Exit codes: 0 ok, 1 failure, 2 usage, 3 auth or permission, 4 not found,
            5 rate limited or out of credits, 6 awaited task failed, 130 interrupted`,
    );
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => deps.streams.stdout.write(s),
    writeErr: (s) => deps.streams.stderr.write(s),
  });
  return program;
}

/** Registers every group fully: for completion scripts and tests of the whole tree. */
export async function registerAll(program: Command, deps: Deps): Promise<void> {
  for (const g of GROUPS) (await g.load()).register(program, deps);
}

/** Output (and with it chalk) loads only once a command runs or fails: help and --version skip it. */
let IOClass: typeof IO | undefined;
async function loadIO(): Promise<void> {
  IOClass ??= (await import('./io/output.js')).IO;
}

function createDeps(
  streams: Streams,
  env: NodeJS.ProcessEnv,
  jsonShape: { fields?: string[] },
): Deps & { setGlobals(g: GlobalOptions): void } {
  let globals: GlobalOptions = {};
  let io: IO | undefined;
  let configP: Promise<import('./config/profiles.js').ConfigStore> | undefined;
  let settingsP: Promise<import('./config/profiles.js').ResolvedSettings> | undefined;
  let transportP: Promise<import('../client/index.js').Transport> | undefined;
  const deps: Deps & { setGlobals(g: GlobalOptions): void } = {
    streams,
    env,
    now: () => new Date(),
    version: VERSION,
    setGlobals(g) {
      globals = g;
      io = undefined;
    },
    globals: () => globals,
    io() {
      if (!IOClass) throw new Error('output used before it was loaded');
      return (io ??= new IOClass({
        stdout: streams.stdout as never,
        stderr: streams.stderr as never,
        json: Boolean(globals.json),
        quiet: Boolean(globals.quiet),
        color: globals.color !== false && !env.NO_COLOR && env.FORCE_COLOR !== '0',
        shape: { fields: jsonShape.fields, jq: globals.jq },
        wide: Boolean(globals.wide),
        // Only the process's own terminal can hand its screen to a pager.
        pager: streams.stdout === process.stdout && pagerOf(env) ? { command: pagerOf(env)!, env } : undefined,
      }));
    },
    config() {
      return (configP ??= import('./config/profiles.js').then((m) => new m.ConfigStore(env.FACET_CONFIG_DIR)));
    },
    settings() {
      return (settingsP ??= (async () => {
        const m = await import('./config/profiles.js');
        return m.resolveSettings(await deps.config(), { profile: globals.profile, baseUrl: globals.baseUrl }, env);
      })());
    },
    async api<K extends import('../client/index.js').ClientName = never>(...groups: K[]) {
      const { createApi, createTransport } = await import('../client/index.js');
      transportP ??= deps.settings().then((s) =>
        createTransport({
          baseUrl: s.baseUrl,
          imageBaseUrl: s.imageBaseUrl,
          credentials: { apiKey: s.apiKey, accessToken: s.accessToken, adminKey: s.adminKey },
          debug: globals.debug ? (line: string) => streams.stderr.write(`[debug] ${line}\n`) : undefined,
          userAgent: `facet-cli/${VERSION}`,
          timeoutMs: Number(env.FACET_TIMEOUT_MS) || 30_000,
        }),
      );
      return createApi(await transportP, groups);
    },
    canPrompt() {
      return (
        Boolean(streams.stdin.isTTY && streams.stderr.isTTY) &&
        globals.input !== false &&
        env.CI !== 'true' &&
        env.CI !== '1'
      );
    },
  };
  return deps;
}

/** Loaded by run() only when an API error's message names a route: the common paths skip it. */
let routeHints: typeof import('./route-hints.js') | undefined;

/** Loaded by run() only for a 400/422 from a command with options: naming its flags for the fields. */
let fieldFlags: typeof import('./field-flags.js') | undefined;

/** An error as scripts read it under --json: one JSON document on stderr, stdout left empty. */
function jsonError(deps: Deps, error: Record<string, unknown>): void {
  deps.streams.stderr.write(JSON.stringify({ error }, null, 2) + '\n');
}

const EXIT_NAMES = Object.fromEntries(Object.entries(EXIT).map(([name, code]) => [code, name]));

/**
 * Turns any error into one clear line on stderr and the documented exit code; under --json (or
 * --jq) into `{"error": {...}}` on stderr instead, so a script's stdout holds data or nothing.
 */
function report(err: unknown, deps: Deps, action: Command | undefined): number {
  const io = deps.io();
  const json = io.json;
  if (err instanceof CliError) {
    if (err.reported) return err.exitCode;
    if (json) {
      jsonError(deps, {
        status: null,
        code: EXIT_NAMES[err.exitCode] ?? 'failure',
        message: err.message,
        ...(err.hint ? { hint: err.hint } : {}),
        request_id: null,
      });
      return err.exitCode;
    }
    io.error(err.message);
    if (err.hint) io.info(`hint: ${err.hint}`);
    return err.exitCode;
  }
  // Matched by name, not instanceof, so this module need not load the client's.
  const e = err as Error | null | undefined;
  switch (e?.name) {
    case 'ApiError': {
      const a = err as ApiError;
      if (json) {
        jsonError(deps, { status: a.status, code: a.code, message: a.message, request_id: a.requestId ?? null });
        return exitCodeForStatus(a.status);
      }
      const parts = [`code ${a.code}`, `HTTP ${a.status}`];
      if (a.requestId) parts.push(`request id ${a.requestId}`);
      let message = routeHints?.inCliTerms(a.message) ?? a.message;
      if (fieldFlags) message = fieldFlags.inFlagTerms(message, action);
      io.error(`${message} (${parts.join(', ')})`);
      return exitCodeForStatus(a.status);
    }
    case 'NetworkError':
    case 'RequestTimeoutError':
    case 'MissingCredentialError':
      if (json) {
        jsonError(deps, { status: null, code: e.name, message: e.message, request_id: null });
        return e.name === 'MissingCredentialError' ? EXIT.auth : EXIT.failure;
      }
  }
  switch (e?.name) {
    case 'NetworkError':
      io.error(e.message);
      io.info('hint: is the platform running? `facet serve` starts a local one');
      return EXIT.failure;
    case 'RequestTimeoutError':
      // Reached but slow: the platform is running, so "is it running?" would mislead.
      io.error(e.message);
      io.info(
        'hint: the platform took the request but did not answer in time; FACET_TIMEOUT_MS (milliseconds) waits longer',
      );
      return EXIT.failure;
    case 'MissingCredentialError':
      io.error(e.message);
      return EXIT.auth;
    case 'ExitPromptError':
    case 'AbortPromptError':
      return EXIT.interrupted;
  }
  if (json) {
    jsonError(deps, { status: null, code: 'failure', message: e?.message ?? String(err), request_id: null });
    return EXIT.failure;
  }
  io.error(e?.message ?? String(err));
  if (deps.globals().debug && e?.stack) deps.streams.stderr.write(e.stack + '\n');
  return EXIT.failure;
}

export async function run(
  argv: string[],
  streams: Streams = process,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  // A reader that goes away (`facet … | head`) is not an error: stop quietly, as Unix tools do.
  if (streams.stdout === process.stdout) {
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(EXIT.ok);
      throw err;
    });
  }
  let args = argv.slice(2);
  const jsonShape: { fields?: string[] } = {};
  let jsonCandidate: number | undefined;
  try {
    // Loaded only when --json is there at all: other commands start as fast as before.
    if (args.some((a) => a.startsWith('--json')))
      ({
        args,
        fields: jsonShape.fields,
        candidate: jsonCandidate,
      } = (await import('./io/json-shape.js')).extractJsonFields(args));
  } catch (err) {
    streams.stderr.write(`error: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  const deps = createDeps(streams, env, jsonShape);
  const program = createProgram(deps);
  let actionCommand: Command | undefined;
  program.hook('preAction', async (_root, action) => {
    actionCommand = action;
    const globals = action.optsWithGlobals<GlobalOptions & { profile?: unknown }>();
    // `serve --no-profile` shares the name: under `facet serve …` its boolean is not a profile name.
    if (typeof globals.profile !== 'string') globals.profile = program.opts().profile as string | undefined;
    deps.setGlobals(globals);
    await loadIO();
    (await import('./empty-values.js')).refuseEmptyValues(action);
  });
  // The one answer that needs no command tree.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    streams.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  // A help topic rather than a command: commander would look for an `environment` command.
  if (args[0] === 'help' && (args[1] === 'environment' || args[1] === 'env') && args.length === 2) {
    streams.stdout.write((await import('./help-environment.js')).environmentHelp());
    return EXIT.ok;
  }
  const target = groupFromArgv(args, jsonCandidate);
  const wanted = GROUPS.find((g) => g.name === target);
  try {
    if (wanted?.name === 'completion') await registerAll(program, deps);
    else {
      for (const g of GROUPS) {
        if (g === wanted) (await g.load()).register(program, deps);
        else program.command(g.name, { hidden: g.hidden }).description(g.summary);
      }
    }
    if (
      jsonCandidate !== undefined &&
      (await import('./json-candidate.js')).candidateIsField(program, args, jsonCandidate, env)
    ) {
      jsonShape.fields = [args[jsonCandidate]];
      args = args.filter((_, i) => i !== jsonCandidate);
    }
    await program.parseAsync([...argv.slice(0, 2), ...args]);
    if (IOClass) await deps.io().flush();
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return EXIT.ok;
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    await loadIO();
    if ((err as Error)?.name === 'ApiError' && /\b(GET|POST|PUT|PATCH|DELETE) \//.test((err as Error).message))
      routeHints = await import('./route-hints.js');
    const status = (err as Partial<ApiError>)?.status;
    if ((err as Error)?.name === 'ApiError' && (status === 400 || status === 422) && actionCommand?.options.length)
      fieldFlags = await import('./field-flags.js');
    // JSON already on its way through jq is printed before the error (`facet api` bodies of a 4xx).
    await deps
      .io()
      .flush()
      .catch(() => {});
    return report(err, deps, actionCommand);
  }
}

export { Option };
