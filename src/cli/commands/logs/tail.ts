import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { displayWidth, truncate } from '../../io/tty-table.js';
import type { IO } from '../../io/output.js';
import type { RequestLogLine } from '../../../contract/audit.js';
import type { TailQuery } from '../../../client/audit.js';

interface TailOptions {
  status?: string;
  path?: string;
  key?: string;
  method?: string;
  mine?: boolean;
}

/** `4xx`, `404`, or several comma-separated: checked here so a typo is a usage error, not a 422. */
function statusOption(value: string): string {
  const v = value.trim().toLowerCase();
  if (!/^([1-5]xx|[1-5]\d\d)(,([1-5]xx|[1-5]\d\d))*$/.test(v))
    throw new InvalidArgumentError('expected a status class (4xx), a code (404), or several comma-separated');
  return v;
}

/** The parts of a line for people, in the order they are shown. */
function parts(l: RequestLogLine) {
  return {
    time: l.time.slice(11, 23),
    method: l.method.padEnd(6),
    status: String(l.status),
    ms: `${l.duration_ms} ms`,
  };
}

/**
 * One line for people: time, method, path, status (coloured by class), duration, key and request id.
 * On a terminal the line fits its width: the request id is left out first, then the path is cut
 * (with …); piped, every line is whole.
 */
export function humanLine(io: IO, l: RequestLogLine, width?: number): string {
  const c = io.c;
  const paint = l.status >= 500 ? c.red : l.status >= 400 ? c.yellow : l.status >= 300 ? c.cyan : c.green;
  const p = parts(l);
  const key = l.key_id ?? '-';
  let path = l.path;
  let id: string | undefined = l.request_id;
  if (width) {
    const fixed = `${p.time}  ${p.method} ${p.status}  ${''}  ${p.ms}  ${key}`;
    const room = (withId: boolean) => width - displayWidth(fixed) - (withId ? 2 + displayWidth(l.request_id) : 0);
    if (room(true) < displayWidth(path)) id = undefined;
    if (room(id !== undefined) < displayWidth(path)) path = truncate(path, Math.max(12, room(false)));
  }
  return `${c.dim(p.time)}  ${p.method} ${paint(p.status)}  ${path}  ${c.dim(p.ms)}  ${key}${id ? `  ${c.dim(id)}` : ''}\n`;
}

/**
 * Options -> the tail (everyone's for an administrator, else the caller's own keys') -> a line per
 * request as it arrives, or one JSON object a line with --json. A line on stderr says what is
 * followed once the server has taken the tail. Ends when the server ends the stream (it drains), or
 * at Ctrl-C with exit 130, as every interrupted command does.
 */
export async function run(opts: TailOptions, deps: Deps): Promise<void> {
  const api = await deps.api('audit');
  const io = deps.io();
  const { baseUrl } = await deps.settings();
  const query: TailQuery = { status: opts.status, path: opts.path, key: opts.key, method: opts.method?.toUpperCase() };
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const width = () => (io.stdoutIsTTY ? (process.stdout.columns ?? 80) : undefined);
  const show = (line: RequestLogLine) => (io.json ? io.printJsonLine(line) : io.write(humanLine(io, line, width())));
  const opened = (whose: string) => () =>
    io.info(io.errC.dim(`following ${whose} to ${baseUrl} as they are answered (Ctrl-C to stop)`));
  const follow = async (lines: AsyncGenerator<RequestLogLine>) => {
    for await (const line of lines) show(line);
  };
  const own = (whose = 'the requests made with your own keys') =>
    api.audit.tailOwn(query, { signal: stop.signal, onOpen: opened(whose) });
  try {
    if (opts.mine) {
      await follow(own());
    } else {
      // An administrator's credentials see everyone's requests; anyone else's, their own keys'.
      const all = api.audit.tailAll(query, { signal: stop.signal, onOpen: opened("everyone's requests") });
      let first: IteratorResult<RequestLogLine> | undefined;
      try {
        first = await all.next();
      } catch (err) {
        const e = err as { name?: string; status?: number };
        if (!(e.name === 'MissingCredentialError' || (e.name === 'ApiError' && (e.status === 401 || e.status === 403))))
          throw err;
      }
      if (first === undefined) {
        await follow(own('the requests made with your own keys (the whole log is for administrators)'));
      } else if (!first.done) {
        show(first.value);
        await follow(all);
      }
    }
    if (!stop.signal.aborted) io.info('the server ended the log stream');
  } catch (err) {
    if (!stop.signal.aborted) throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await io.flush();
  }
  if (stop.signal.aborted) throw new CliError('interrupted', EXIT.interrupted);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('tail')
    .description(
      "Follow requests as they are answered: method, path, status, time, key id, request id (administrators see everyone's, others their own keys')",
    )
    .option(
      '--status <status>',
      'only these statuses: a class (4xx), a code (404), or several comma-separated',
      statusOption,
    )
    .option('--path <glob>', 'only paths matching this glob (* is any run of characters: /v2/*)')
    .option('--key <key-id>', 'only requests made with this key')
    .option('--method <method>', 'only this HTTP method (GET, POST, …)')
    .option('--mine', "only your own keys' requests, even with an administrator's credentials")
    .addHelpText(
      'after',
      "\nExamples:\n  $ facet logs tail --status 4xx\n  $ facet logs tail --path '/v2/*' --method POST --json | jq .status",
    )
    .action((opts: TailOptions) => run(opts, deps));
}
