import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { dataDirOf, dataDirOption, withStore } from './offline.js';

export function register(serve: Command, deps: Deps): void {
  const social = serve.command('social').description("The local platform's social store (offline, on its data dir)");
  dataDirOption(
    social
      .command('import')
      .argument('<file>', 'JSON Lines of users and posts, v2 or beta camelCase shape ("-" for stdin)')
      .description('Import users and posts into the social store; a re-import updates them by id')
      .option('--no-seed', 'do not add the seeded sample data to a store that has not had it yet')
      .addHelpText(
        'after',
        '\nExamples:\n  $ facet serve social import posts.jsonl\n  $ facet social search "…" --json | jq -c ".tweets[]" | facet serve social import -',
      ),
  ).action(async (file: string, opts: { seed: boolean }, cmd: Command) => {
    const input = file === '-' ? deps.streams.stdin : await openFile(file);
    const [{ importSocial, ImportError }, { ensureSocialSeed, markSocialSeeded }] = await Promise.all([
      import('../../../server/providers/social/import.js'),
      import('../../../server/providers/social/seeding.js'),
    ]);
    const started = performance.now();
    const result = await withStore(dataDirOf(cmd), async (ctx) => {
      if (opts.seed) await ensureSocialSeed(ctx.db);
      else await markSocialSeeded(ctx.db);
      // Made only now: readline starts reading at once (importSocial listens before its first await).
      return importSocial(ctx.db, createInterface({ input, crlfDelay: Infinity }));
    }).catch((e: Error) => {
      throw e instanceof ImportError ? new CliError(`${file}: ${e.message}`, EXIT.failure) : e;
    });
    const io = deps.io();
    const seconds = (performance.now() - started) / 1000;
    io.print(result, () =>
      io.success(`imported ${result.users} users and ${result.posts} posts in ${seconds.toFixed(1)} s`),
    );
  });
}

/** The file as a stream (read line by line, so its size is not bounded by memory). */
async function openFile(file: string): Promise<NodeJS.ReadableStream> {
  const handle = await open(file).catch((e: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${e.code ?? e.message}`, EXIT.failure);
  });
  return handle.createReadStream({ encoding: 'utf8' });
}
