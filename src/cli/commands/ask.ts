import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { collect } from '../io/parse.js';

/**
 * The LiveDoc a question without --livedoc is asked of: the profile's default_livedoc, else the
 * caller's only LiveDoc. Never a new one made on the way: an empty LiveDoc answers nothing, and a
 * default set behind the person's back would decide their later questions.
 */
async function chosenLivedoc(deps: Deps): Promise<{ id: string; note?: string }> {
  const settings = await deps.settings();
  if (settings.defaultLivedoc) return { id: settings.defaultLivedoc };
  const api = await deps.api('livedocs');
  const page = await api.livedocs.list({ page: 1, size: 5 });
  const setDefault = 'facet config set default_livedoc ID';
  if (page.total === 0)
    throw new CliError(
      'you have no LiveDoc to ask: make one and add your documents first',
      EXIT.notFound,
      'facet livedocs create NAME, then facet livedocs upload ID FILE (or add-url ID URL)',
    );
  if (page.total === 1)
    return {
      id: page.items[0].short_id,
      note: `asking LiveDoc ${page.items[0].short_id} (${page.items[0].name}), your only one; ${setDefault} makes it the default`,
    };
  const listed = page.items.map((d) => `${d.short_id} (${d.name})`).join(', ');
  throw usageError(
    `which LiveDoc? you have ${page.total}: ${listed}${page.total > page.items.length ? ', …' : ''}`,
    `--livedoc ID for this question, ${setDefault} for every question, or facet chat to ask across all of them`,
  );
}

/** `facet ask` = `facet conversations start` with the answer streamed, over one LiveDoc. */
export function register(program: Command, deps: Deps): void {
  program
    .command('ask')
    .argument('<query>', 'the question (1-2000 characters)')
    .description('Ask a question over one LiveDoc and print the answer as it is written')
    .option(
      '--livedoc <id>',
      "answer from this LiveDoc (default: the profile's default_livedoc, else your only LiveDoc)",
    )
    .option('--resource <id>', 'only these resources of the LiveDoc; repeatable', collect)
    .option('--include-generated', 'also answer from decks, pages and mindmaps facet generated (left out by default)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet ask "What does our refund policy say about annual plans?" --livedoc ld_x\n  $ facet config set default_livedoc ld_x && facet ask "And for monthly plans?"',
    )
    .action(async (query: string, opts: { livedoc?: string; resource?: string[]; includeGenerated?: boolean }) => {
      const start = await import('./conversations/start.js');
      const chosen = opts.livedoc ? { id: opts.livedoc } : await chosenLivedoc(deps);
      if (chosen.note) deps.io().info(deps.io().errC.dim(chosen.note));
      await start.run(query, { ...opts, livedoc: chosen.id, stream: true }, deps);
    });
}
