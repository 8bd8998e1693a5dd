import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { printCreated } from '../../../render/created.js';
import { CliError, EXIT, usageError } from '../../../exit-codes.js';
import { LIVEDOC_OPTION } from '../target.js';

export interface AddUrlOptions {
  livedoc?: string;
  title?: string;
}

export async function run(args: string[], opts: AddUrlOptions, deps: Deps): Promise<void> {
  // URLs are told apart from the LiveDoc id by their scheme, so the LiveDoc may come first or by option.
  let livedoc = opts.livedoc;
  const urls = args.filter((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a));
  const others = args.filter((a) => !urls.includes(a));
  if (!livedoc) livedoc = others.shift() ?? deps.env.FACET_LIVEDOC;
  if (!livedoc) throw usageError('which LiveDoc? give its id as the first argument or with --livedoc');
  if (others.length > 0) throw usageError(`not a URL: ${others.join(' ')}`);
  if (urls.length === 0 || urls.length > 10) throw usageError('give 1 to 10 URLs');
  if (opts.title !== undefined && urls.length !== 1) throw usageError('--title goes with a single URL');
  const api = await deps.api('livedocs');
  const results = await api.livedocs.resources.addUrls(
    livedoc,
    opts.title !== undefined ? [{ url: urls[0], title: opts.title }] : urls,
  );
  const io = deps.io();
  const added = results.flatMap((r) => (r.status === 'failed' || !r.resource_id ? [] : [r.resource_id]));
  printCreated(io, results, added, () =>
    io.table(results, [
      { header: 'STATUS', value: (r) => r.status },
      { header: 'RESOURCE', value: (r) => r.resource_id },
      { header: 'URL', value: (r) => r.url },
      { header: 'REASON', value: (r) => r.fail_reason ?? '' },
    ]),
  );
  const failures = results.filter((r) => r.status === 'failed');
  const why = (r: (typeof results)[number]) => `${r.url}: ${r.fail_reason ?? 'no reason given'}`;
  if (failures.length === 1 && results.length === 1)
    throw new CliError(`could not add ${why(failures[0])}`, EXIT.failure);
  // The table on a terminal has a REASON column; piped or --json, stderr says which URL failed and why.
  if (io.json || !io.stdoutIsTTY) for (const r of failures) io.warn(`could not add ${why(r)}`);
  if (failures.length === results.length)
    throw new CliError(`no URL could be added (${failures.length} failed)`, EXIT.failure);
  if (failures.length > 0) io.warn(`${failures.length} of ${results.length} URLs failed`);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('add-url')
    .argument('<args...>', '[LIVEDOC] URL... (1-10 URLs)')
    .description('Fetch web pages and add their text to a LiveDoc; piped, prints only the new resource ids')
    .option(...LIVEDOC_OPTION)
    .option('--title <text>', 'title for a single URL (default: from the page)')
    .addHelpText(
      'after',
      '\nExample:\n  $ facet livedocs resources add-url ld_x https://example.com/a https://example.com/b',
    )
    .action((args: string[], opts: AddUrlOptions) => run(args, opts, deps));
}
