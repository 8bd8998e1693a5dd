import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { collect } from '../io/parse.js';

/** `facet ask` = `facet conversations start` with the answer streamed. */
export function register(program: Command, deps: Deps): void {
  program
    .command('ask')
    .argument('<query>', 'the question (1-2000 characters)')
    .description('Ask a question over your LiveDocs and print the answer as it is written')
    .option('--livedoc <id>', 'answer from this LiveDoc (default: a new one)')
    .option('--resource <id>', 'only these resources of the LiveDoc; repeatable', collect)
    .addHelpText('after', '\nExample:\n  $ facet ask "What does our refund policy say about annual plans?" --livedoc ld_x')
    .action(async (query: string, opts: { livedoc?: string; resource?: string[] }) => {
      const start = await import('./conversations/start.js');
      await start.run(query, { ...opts, stream: true }, deps);
    });
}
