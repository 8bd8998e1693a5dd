import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

export async function run(thread: string, deps: Deps): Promise<void> {
  const api = await deps.api();
  const d = await api.conversations.get(thread);
  const io = deps.io();
  io.print(d, () => io.fields([['thread', d.thread_short_id], ['title', d.title], ['livedoc', d.live_doc_short_id], ['created', d.created_at], ['updated', d.updated_at]]));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('get')
    .argument('<thread>', 'the thread id (thr_…)')
    .description('Show a conversation: title (from its first question), LiveDoc and times')
    .addHelpText('after', '\nExample:\n  $ facet conversations get thr_0123456789abcdef --json')
    .action((thread: string) => run(thread, deps));
}
