import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { intOption } from '../../io/parse.js';
import { followStream } from '../../render/stream.js';

export async function run(key: string, opts: { offset?: number }, deps: Deps): Promise<void> {
  const io = deps.io();
  const result = await followStream(deps, key, { offset: opts.offset, print: !io.json });
  if (io.json) io.printJson({ stream_key: key, answer: result.answer, offset: result.offset });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('stream')
    .argument('<stream-key>', 'the stream key from start or follow-up')
    .description('Print an answer stream from an offset (events already received) to its end')
    .option('--offset <n>', 'skip the first N events (default 0: from the start)', intOption(0, 10_000_000))
    .addHelpText('after', '\nExample:\n  $ facet conversations stream stk_… --offset 12')
    .action((key: string, opts: { offset?: number }) => run(key, opts, deps));
}
