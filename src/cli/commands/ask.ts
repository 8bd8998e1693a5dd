import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { collect } from '../io/parse.js';

/** `facet ask` = `facet conversations start` with the answer streamed. */
export function register(program: Command, deps: Deps): void {
  program
    .command('ask')
    .argument('<query>', 'the question (1-2000 characters)')
    .description('Ask a question over your LiveDocs and print the answer as it is written')
    .option(
      '--livedoc <id>',
      "answer from this LiveDoc (default: the profile's default_livedoc; the first ask creates it)",
    )
    .option('--resource <id>', 'only these resources of the LiveDoc; repeatable', collect)
    .option('--include-generated', 'also answer from decks, pages and mindmaps facet generated (left out by default)')
    .addHelpText(
      'after',
      '\nExample:\n  $ facet ask "What does our refund policy say about annual plans?" --livedoc ld_x',
    )
    .action(async (query: string, opts: { livedoc?: string; resource?: string[]; includeGenerated?: boolean }) => {
      const start = await import('./conversations/start.js');
      // One LiveDoc for all questions, not one per question: the profile's default_livedoc, which
      // the first ask without one sets to the LiveDoc the platform made for it.
      const settings = await deps.settings();
      const livedoc = opts.livedoc ?? settings.defaultLivedoc;
      const started = await start.run(query, { ...opts, livedoc, stream: true }, deps);
      if (livedoc || !started) return;
      const store = await deps.config();
      const io = deps.io();
      if (store.profile(settings.profileName)) {
        store.update(settings.profileName, { default_livedoc: started.live_doc_short_id });
        io.info(
          io.errC.dim(
            `later questions use LiveDoc ${started.live_doc_short_id} (profile "${settings.profileName}" default_livedoc)`,
          ),
        );
      } else
        io.info(
          io.errC.dim(`set FACET_DEFAULT_LIVEDOC=${started.live_doc_short_id} to ask again over the same LiveDoc`),
        );
    });
}
