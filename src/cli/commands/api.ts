import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { CliError, exitCodeForStatus, usageError } from '../exit-codes.js';
import { collect } from '../io/parse.js';
import { readStdin } from '../io/prompt.js';
import { rawRequestSpec } from '../raw-request.js';

export interface ApiOptions {
  field: string[];
  rawField: string[];
  header: string[];
  input?: string;
  include?: boolean;
  method?: string;
  paginate?: boolean;
  slurp?: boolean;
}

/** -F values are typed like gh api: numbers, true/false, null, @file for a file's text. */
async function typed(value: string): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) return (await readFile(value.slice(1), 'utf8')).replace(/\n$/, '');
  return value;
}

function splitPair(pair: string, flag: string): [string, string] {
  const i = pair.indexOf('=');
  if (i <= 0) throw usageError(`${flag} takes key=value, got "${pair}"`);
  return [pair.slice(0, i), pair.slice(i + 1)];
}

/** `facet api PATH` (gh's form: GET, or POST when fields are given; -X to choose) or `facet api METHOD PATH`. */
export async function run(first: string, second: string | undefined, opts: ApiOptions, deps: Deps): Promise<void> {
  let method: string;
  let path: string;
  if (second === undefined) {
    if (!first.includes('/') && /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/i.test(first))
      throw usageError(`give the path after ${first}`);
    path = first;
    method = opts.method ?? (opts.field.length || opts.rawField.length || opts.input ? 'POST' : 'GET');
  } else {
    if (opts.method) throw usageError('give the method once: as the first argument or with -X');
    [method, path] = [first, second];
  }
  if (opts.slurp && !opts.paginate) throw usageError('--slurp needs --paginate');
  const verb = method.toUpperCase();
  if (!/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(verb)) throw usageError(`unknown method ${method}`);
  if (!path.startsWith('/')) path = `/${path}`;
  const fields: Record<string, unknown> = {};
  for (const f of opts.rawField) {
    const [k, v] = splitPair(f, '-f');
    fields[k] = v;
  }
  for (const f of opts.field) {
    const [k, v] = splitPair(f, '-F');
    fields[k] = await typed(v);
  }
  const headers: Record<string, string> = {};
  for (const h of opts.header) {
    const i = h.indexOf(':');
    if (i <= 0) throw usageError(`-H takes "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  let body: unknown;
  if (opts.input) body = opts.input === '-' ? await readStdin(deps.streams.stdin) : await readFile(opts.input, 'utf8');
  const withQuery = verb === 'GET' || verb === 'DELETE' || verb === 'HEAD' || body !== undefined;
  if (!withQuery && Object.keys(fields).length) body = fields;
  if (typeof body === 'string') headers['content-type'] ??= 'application/json';

  const api = await deps.api();
  const spec = await rawRequestSpec(verb, path, {
    query: withQuery ? (fields as Record<string, string>) : undefined,
    body,
    headers,
  });
  const send = async (query: typeof spec.query) => {
    try {
      return await api.transport.send({ ...spec, query });
    } catch (err) {
      // A missing credential is the server's to judge here: send the call without it.
      if ((err as Error).name !== 'MissingCredentialError') throw err;
      return api.transport.send({ ...spec, query, auth: 'none' });
    }
  };
  const io = deps.io();
  const slurped: unknown[] = [];
  let query = spec.query;
  for (let page = 1; ; page++) {
    const res = await send(query);
    if (opts.include) {
      io.write(`HTTP ${res.status}\n`);
      for (const [k, v] of Object.entries(res.headers)) io.write(`${k}: ${Array.isArray(v) ? v.join(', ') : v}\n`);
      io.write('\n');
    }
    const text = res.body.toString('utf8');
    const type = String(res.headers['content-type'] ?? '');
    const json: unknown = type.includes('json') && text ? JSON.parse(text) : undefined;
    if (res.status >= 400 || !opts.slurp) {
      if (json !== undefined) io.printBody(json);
      else if (text) io.write(text.endsWith('\n') ? text : text + '\n');
    }
    if (res.status >= 400)
      throw new CliError(
        `HTTP ${res.status}${res.requestId ? ` (request id ${res.requestId})` : ''}`,
        exitCodeForStatus(res.status),
      );
    if (!opts.paginate) return;
    if (opts.slurp) slurped.push(...(await import('../api-paging.js')).pageItems(json ?? text));
    const next = json === undefined ? undefined : (await import('../api-paging.js')).nextPageQuery(res, json);
    // A page limit guards against a server that keeps answering with the same cursor.
    if (!next || page >= 10_000) break;
    query = { ...query, ...next };
  }
  if (opts.slurp) io.printBody(slurped);
}

export function register(program: Command, deps: Deps): void {
  program
    .command('api')
    .argument(
      '<method-or-path>',
      'GET, POST, PUT, PATCH or DELETE, then the path; or the path alone (GET, or POST with fields)',
    )
    .argument('[path]', 'path on the platform, e.g. /auth/api-keys or /v2/livedocs')
    .description("Make a raw API call with the profile's credentials for that surface; prints the body")
    .option('-f, --raw-field <key=value>', 'a string field (query for GET, JSON body otherwise)', collect, [])
    .option('-F, --field <key=value>', 'a typed field: numbers, true, false, null, @file', collect, [])
    .option('-H, --header <header>', 'an extra header, "Name: value"', collect, [])
    .option('--input <file>', 'the request body from a file, or - for stdin')
    .option('-i, --include', 'print the status line and headers first')
    .option('-X, --method <method>', 'the method, with the path alone as argument')
    .option(
      '--paginate',
      "fetch every page, following the surface's paging (X-Next-Cursor, next_cursor, /v2 page/size/total)",
    )
    .option('--slurp', "with --paginate: print one array of all pages' records")
    .addHelpText(
      'after',
      `
Examples:
  $ facet api GET /auth/api-keys
  $ facet api /v2/livedocs --paginate --slurp --jq 'length'
  $ facet api /auth/api-keys -f name=ci            # POST: fields given
  $ facet api POST /auth/api-keys -f name=ci -F expires_in_days=30
  $ facet api GET /admin/api-key-usage -F limit=10
  $ echo '{"query":"hello"}' | facet api POST /v2/chat --input -`,
    )
    .action((first: string, second: string | undefined, opts: ApiOptions) => run(first, second, opts, deps));
}
