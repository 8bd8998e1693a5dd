import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { CliError, EXIT } from '../../../exit-codes.js';
import { intOption } from '../../../io/parse.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface DownloadOptions {
  livedoc?: string;
  output?: string;
  urlOnly?: boolean;
  expiresIn?: number;
}

function fileNameOf(disposition: string | null): string | undefined {
  const m = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  return m ? path.basename(decodeURIComponent(m[1])) : undefined;
}

export async function run(args: string[], opts: DownloadOptions, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  const api = await deps.api('livedocs');
  const url = await api.livedocs.resources.downloadUrl(livedoc, rest[0], opts.expiresIn);
  const io = deps.io();
  if (opts.urlOnly) return io.print({ url }, () => io.write(url + '\n'));
  const { fetch } = await import('undici');
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new CliError(`download failed: HTTP ${res.status}`, res.status === 404 ? EXIT.notFound : EXIT.failure);
  const target_ = opts.output ?? fileNameOf(res.headers.get('content-disposition')) ?? rest[0];
  if (target_ === '-') {
    await pipeline(res.body as never, deps.streams.stdout as never, { end: false });
    return;
  }
  await pipeline(res.body as never, createWriteStream(target_));
  io.print({ url, path: target_ }, () => io.success(`saved ${target_}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('download')
    .argument('<ids...>', '[LIVEDOC] RESOURCE')
    .description('Download the source file of a resource (through an expiring signed link)')
    .option(...LIVEDOC_OPTION)
    .option('-o, --output <path>', 'where to save it (- for stdout; default: its file name)')
    .addOption(new Option('--url-only', 'print the signed URL instead of downloading').conflicts('output'))
    .option('--expires-in <seconds>', 'lifetime of the signed URL (default 3600)', intOption(1, 7 * 86_400))
    .addHelpText('after', '\nExample:\n  $ facet livedocs resources download ld_x res_y -o report.pdf')
    .action((ids: string[], opts: DownloadOptions) => run(ids, opts, deps));
}
