import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { collect } from '../../io/parse.js';
import { followStream } from '../../render/stream.js';

export interface StartOptions {
  livedoc?: string;
  resource?: string[];
  stream?: boolean;
  includeGenerated?: boolean;
}

/** Shared by `conversations start` and `ask`: create, then stream the answer unless told not to. */
export async function run(
  query: string,
  opts: StartOptions,
  deps: Deps,
): Promise<import('../../../contract/conversations.js').ConversationStarted> {
  const api = await deps.api('conversations');
  const started = await api.conversations.start({
    query,
    live_doc_short_id: opts.livedoc,
    selected_resource_ids: opts.resource,
    ...(opts.includeGenerated ? { include_generated: true } : {}),
  });
  const io = deps.io();
  if (opts.stream === false) {
    io.print(started, () =>
      io.fields([
        ['thread', started.thread_short_id],
        ['stream key', started.stream_key],
        ['livedoc', started.live_doc_short_id],
      ]),
    );
    return started;
  }
  io.info(io.errC.dim(`thread ${started.thread_short_id} · livedoc ${started.live_doc_short_id}`));
  const { answer } = await followStream(deps, started.stream_key, { print: !io.json });
  if (io.json) io.printJson({ ...started, answer });
  else io.info(io.errC.dim(`follow up: facet conversations follow-up ${started.thread_short_id} "…"`));
  return started;
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('start')
    .argument('<query>', 'the question (1-2000 characters)')
    .description('Start a conversation and print the answer as it is written')
    .option('--livedoc <id>', 'answer from this LiveDoc (default: a new one)')
    .option('--resource <id>', 'only these resources of the LiveDoc; repeatable', collect)
    .option('--include-generated', 'also answer from decks, pages and mindmaps facet generated (left out by default)')
    .option('--no-stream', 'print the thread and stream key instead of the answer')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet conversations start "What changed in v2?" --livedoc ld_x\n  $ facet conversations start "Summarise" --livedoc ld_x --resource res_a --resource res_b',
    )
    .action(async (query: string, opts: StartOptions) => {
      await run(query, opts, deps);
    });
}
