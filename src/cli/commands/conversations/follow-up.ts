import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { followStream } from '../../render/stream.js';

export async function run(
  thread: string,
  query: string,
  opts: { stream?: boolean; includeGenerated?: boolean },
  deps: Deps,
): Promise<void> {
  const api = await deps.api('conversations');
  const started = await api.conversations.followUp(thread, query, opts.includeGenerated === true);
  const io = deps.io();
  if (opts.stream === false) {
    io.print(started, () =>
      io.fields([
        ['thread', started.thread_short_id],
        ['stream key', started.stream_key],
        ['livedoc', started.live_doc_short_id],
      ]),
    );
    return;
  }
  const { answer } = await followStream(deps, started.stream_key, { print: !io.json });
  if (io.json) io.printJson({ ...started, answer });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('follow-up')
    .argument('<thread>', 'the thread id (thr_…)')
    .argument('<query>', 'the next question (1-2000 characters)')
    .description("Ask again in a thread; the answer uses the thread's earlier questions")
    .option('--include-generated', 'also answer from decks, pages and mindmaps facet generated (left out by default)')
    .option('--no-stream', 'print the new stream key instead of the answer')
    .addHelpText('after', '\nExample:\n  $ facet conversations follow-up thr_0123456789abcdef "And in Europe?"')
    .action((thread: string, query: string, opts: { stream?: boolean; includeGenerated?: boolean }) =>
      run(thread, query, opts, deps),
    );
}
