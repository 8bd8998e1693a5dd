import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

export async function run(thread: string, deps: Deps): Promise<void> {
  const api = await deps.api('conversations');
  const d = await api.conversations.get(thread);
  const io = deps.io();
  io.print(d, () => {
    io.fields([
      ['thread', d.thread_short_id],
      ['title', d.title],
      ['livedoc', d.live_doc_short_id],
      ['created', d.created_at],
      ['updated', d.updated_at],
      ['turns', d.turns.length],
    ]);
    // The turns, as a reader follows a conversation: each question, then its answer.
    for (const t of d.turns) {
      io.write(`\n${io.c.bold('> ' + t.query)}  ${io.c.dim(t.created_at)}\n`);
      io.write((t.answer ?? io.c.dim('(no answer yet)')) + '\n');
    }
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('get')
    .argument('<thread>', 'the thread id (thr_…)')
    .description(
      'Show a conversation: title (from its first question), LiveDoc, times, and each question with its answer',
    )
    .addHelpText('after', '\nExample:\n  $ facet conversations get thr_0123456789abcdef --json')
    .action((thread: string) => run(thread, deps));
}
