import { InvalidArgumentError, Option, type Command } from 'commander';
import { collect, intOption } from '../../io/parse.js';
import { addObjectStoreOptions } from './object-store-options.js';
import { timeBudgetOption } from './job-options.js';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** `facet serve`'s own flags and examples; config.ts turns what they parse into the server's options. */
export function addStartOptions(serve: Command): Command {
  addObjectStoreOptions(serve);
  return (
    serve
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port (0 picks a free one)', intOption(0, 65535), 8787)
      .option('--data-dir <dir>', 'where records and files live (default: FACET_DATA_DIR or the OS data dir)')
      .option('--memory', 'keep everything in memory; nothing survives a restart')
      .option(
        '--database-url <url>',
        'keep the records in PostgreSQL, postgres://USER:PASSWORD@HOST:PORT/DB (env FACET_DATABASE_URL); files stay in the data dir',
      )
      .option(
        '--files-dir <dir>',
        'where uploads and task outputs go (env FACET_FILES_DIR; default DATA_DIR/files); several instances on one PostgreSQL must share one (or an object store)',
      )
      .option('--admin-key <key>', 'the deployment admin key for X-Admin-Key (default: generated once)')
      .addOption(
        new Option('--log-level <level>', 'log level (lines on stdout; see --log-format)')
          .default('info')
          .argParser((v) => {
            if (!LEVELS.includes(v)) throw new InvalidArgumentError(`one of ${LEVELS.join(', ')}`);
            return v;
          }),
      )
      .addOption(
        new Option(
          '--log-format <format>',
          'log lines on stdout: readable (pretty) or JSON (default: pretty on a terminal, json otherwise)',
        ).choices(['pretty', 'json']),
      )
      .option('--no-profile', 'do not set up the "local" CLI profile')
      .option('--no-console', 'do not serve the local console at /console')
      .option('--no-mcp', 'do not serve MCP (the tools for AI agents) at /mcp')
      .option('--mcp-idle-seconds <s>', 'end an MCP session idle this long (default 1800)', intOption(1, 86_400))
      .option(
        '--mcp-allowed-origin <origin>',
        'a browser origin /mcp answers besides local pages and the public URL (repeatable; * for any)',
        collect,
      )
      .option('--catalog <file>', 'model catalog JSON replacing the shipped one (env FACET_CATALOG)')
      .option(
        '--upstream-openai-base-url <url>',
        'OpenAI-compatible server for catalog models with api "openai", e.g. http://127.0.0.1:11434/v1 (env FACET_UPSTREAM_OPENAI_BASE_URL)',
      )
      .option('--upstream-openai-key <key>', 'its API key (better: env FACET_UPSTREAM_OPENAI_KEY)')
      .option(
        '--upstream-anthropic-base-url <url>',
        'Anthropic-compatible server for catalog models with api "anthropic" (env FACET_UPSTREAM_ANTHROPIC_BASE_URL)',
      )
      .option('--upstream-anthropic-key <key>', 'its API key (better: env FACET_UPSTREAM_ANTHROPIC_KEY)')
      .option(
        '--social-upstream-base-url <url>',
        'a compatible social data provider to pass social search through to, instead of the local social store (env FACET_SOCIAL_UPSTREAM_BASE_URL)',
      )
      .option('--social-upstream-key <key>', 'its API key (better: env FACET_SOCIAL_UPSTREAM_KEY)')
      .option(
        '--beta-upstream-url <url>',
        'a compatible data provider the /v1/beta data endpoints forward to instead of the local sandbox (env FACET_BETA_UPSTREAM_URL)',
      )
      .option(
        '--beta-upstream-key <key>',
        'its credentials: login:password (HTTP Basic) or a key (bearer); better: env FACET_BETA_UPSTREAM_KEY',
      )
      .option(
        '--upstream-timeout <ms>',
        'give up on an upstream after this long (default 120000)',
        intOption(1000, 3_600_000),
      )
      .option(
        '--default-model <id>',
        "chat model the platform's own features (chat, conversations, …) use; default facet-grounded (env FACET_DEFAULT_MODEL)",
      )
      .option(
        '--key-concurrency <n>',
        'model calls one key may have in flight (default 32; beyond: 429)',
        intOption(1, 100_000),
      )
      // Chat limits of spec 8; the numbers are the platform's to choose (README "Limits").
      .option('--chat-limit-key-per-minute <n>', 'chat requests per API key per minute', intOption(1, 1_000_000), 20)
      .option(
        '--chat-limit-user-per-minute <n>',
        'chat requests per user (all keys) per minute',
        intOption(1, 1_000_000),
        30,
      )
      .option(
        '--chat-limit-user-per-hour <n>',
        'chat requests per user (all keys) per hour',
        intOption(1, 10_000_000),
        500,
      )
      .option(
        '--stream-ttl <seconds>',
        'how long a conversation stream key stays readable',
        intOption(1, 30 * 86_400),
        3600,
      )
      .option(
        '--stream-heartbeat <seconds>',
        'interval of heartbeat comments on conversation streams',
        intOption(1, 3600),
        15,
      )
      .option(
        '--answer-chunk-delay <ms>',
        'pause between streamed answer chunks of the local engine',
        intOption(0, 10_000),
        0,
      )
      .option('--workers <n>', 'async tasks run at once (1-64)', intOption(1, 64), 2)
      .option(
        '--job-lease <seconds>',
        'how long a running task is held without a heartbeat; when an instance dies, others take its tasks over after this (2-600)',
        intOption(2, 600),
        30,
      )
      .option(
        '--job-max-crashes <n>',
        'a task during which the server stopped (killed, crashed, froze) this many times is failed instead of run again (1-100)',
        intOption(1, 100),
        2,
      )
      .option(
        '--job-time-budget <[kind=]seconds>',
        'stop and fail a task run that takes longer: SECONDS for every kind, KIND=SECONDS for one (repeatable; defaults: image-task 600, batch-scrape 21600, the others 1800)',
        timeBudgetOption,
      )
      .option('--chromium <path>', 'Chromium for screenshot tasks (default: FACET_CHROMIUM or /usr/bin/chromium)')
      .option('--max-upload-mb <n>', 'largest accepted upload per file, in MiB (1-1024)', intOption(1, 1024), 20)
      .option('--max-keys-per-user <n>', 'usable API keys one user may hold (1-100000)', intOption(1, 100_000), 100)
      .option(
        '--task-retention-days <n>',
        'days a completed slide or landing-page task keeps its outputs before it reads EXPIRED (1-3650)',
        intOption(1, 3650),
        30,
      )
      .option(
        '--stored-response-days <n>',
        'days a stored response (/api/v1/responses) or message thread is kept (1-3650)',
        intOption(1, 3650),
        30,
      )
      .option(
        '--stored-responses-per-key <n>',
        'stored responses and thread messages one API key may hold at once (1-1000000)',
        intOption(1, 1_000_000),
        10_000,
      )
      .option(
        '--audit-retention-days <n>',
        'days audit entries are kept before the periodic sweep deletes them (1-36500)',
        intOption(1, 36_500),
        365,
      )
      // Bounds on receiving a request, never on answering it: streams and slow models are unaffected.
      .option(
        '--request-timeout <seconds>',
        'time a caller has to send a whole request, body included; past it: 408 (1-86400)',
        intOption(1, 86_400),
        300,
      )
      .option(
        '--headers-timeout <seconds>',
        'time a caller has to send the request line and headers; at most --request-timeout (1-3600)',
        intOption(1, 3600),
        60,
      )
      .option(
        '--keep-alive-timeout <seconds>',
        'how long an idle kept-alive connection stays open (1-3600)',
        intOption(1, 3600),
        72,
      )
      .option(
        '--exec <command>',
        'start on a free port with a temporary data dir (or --data-dir), run the command (through the shell) with FACET_BASE_URL, FACET_API_KEY, FACET_ACCESS_TOKEN and FACET_ADMIN_KEY set, stop, and exit with its code',
      )
      .option(
        '--seed <file>',
        'apply this fixtures file through the API once the platform is up (see `facet serve seed --help`)',
      )
      .option(
        '--drain-timeout <seconds>',
        'on SIGTERM, the longest the stop takes: the drain delay, then in-flight answers (streams too) finish while new requests are refused; the process exits within this plus a second (0-3600)',
        intOption(0, 3600),
        30,
      )
      .option(
        '--max-loop-stall <seconds>',
        'end the process (SIGKILL, for a supervisor to restart it) when its event loop has been stuck this long; stalls over 1 s are logged on stderr either way (0 = never end it; 0-86400)',
        intOption(0, 86_400),
        60,
      )
      .option(
        '--drain-delay <seconds>',
        'on SIGTERM (not Ctrl-C), how long new requests are still served after /readyz turned 503, so the balancer stops sending first; part of --drain-timeout (0-3600)',
        intOption(0, 3600),
        5,
      )
      .option('--instance-id <name>', "this instance's name in audit entries, logs and metrics (default HOST:PORT)")
      .option('--no-metrics', 'do not serve Prometheus metrics at /metrics')
      .option(
        '--metrics-port <port>',
        'serve /metrics on a listener of its own on this port (0 picks a free one) instead of the main one',
        intOption(0, 65535),
      )
      .option('--metrics-host <host>', 'the address of the --metrics-port listener', '127.0.0.1')
      .option(
        '--public-url <url>',
        'the address clients reach this platform at, behind a proxy or balancer: every link in answers names it (env FACET_PUBLIC_URL)',
      )
      .option(
        '--trust-proxy <proxies>',
        'believe X-Forwarded-Proto/-Host from these proxies when there is no --public-url: true, a hop count, or addresses/CIDR blocks, comma-separated (env FACET_TRUST_PROXY)',
      )
      .option(
        '--allow-fetch-from <host|cidr>',
        'let URL add, sites and screenshots fetch this local or private host name, address or CIDR block (repeatable; env FACET_ALLOW_FETCH_FROM, comma-separated)',
        collect,
      )
      .addHelpText(
        'after',
        `
Examples:
  $ facet serve                               # http://127.0.0.1:8787, data in the OS data dir
  $ facet serve --port 0 --data-dir ./data    # a free port, data here
  $ facet serve --memory --log-level warn
  $ facet serve --upstream-openai-base-url http://127.0.0.1:11434/v1 --catalog ./my-models.json
  $ facet serve --workers 4 --chromium /usr/bin/chromium-browser
  $ facet serve --allow-fetch-from 127.0.0.1 --allow-fetch-from docs.internal
  $ facet serve --exec 'npm test'                    # CI: a throwaway platform for one command
  $ facet serve --seed fixtures.json --exec './e2e.sh'`,
      )
  );
}
