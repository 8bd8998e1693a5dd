import { Option, type Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { dispositionFileName, requireOk, saveBody } from '../../../io/download.js';
import { intOption } from '../../../io/parse.js';
import { LIVEDOC_OPTION, target } from '../target.js';

export interface DownloadOptions {
  livedoc?: string;
  output?: string;
  urlOnly?: boolean;
  expiresIn?: number;
}

export async function run(args: string[], opts: DownloadOptions, deps: Deps): Promise<void> {
  const { livedoc, rest } = target(args, opts, deps, ['RESOURCE']);
  const api = await deps.api('livedocs');
  const url = await api.livedocs.resources.downloadUrl(livedoc, rest[0], opts.expiresIn);
  const io = deps.io();
  if (opts.urlOnly) return io.print({ url }, () => io.write(url + '\n'));
  const res = requireOk(await api.transport.openLink(url));
  const target_ = opts.output ?? dispositionFileName(res.headers['content-disposition']) ?? rest[0];
  await saveBody(deps, res, target_);
  if (target_ === '-') return;
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
