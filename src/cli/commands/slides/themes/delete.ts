import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import { confirm } from '../../../io/prompt.js';

export async function run(id: string, deps: Deps): Promise<void> {
  await confirm(deps, `Delete the theme ${id}? Decks already written keep their look.`);
  const api = await deps.api('slides');
  const done = await api.slides.deleteTheme(id);
  deps.io().print(done, () => deps.io().success(`deleted theme ${id}`));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('delete')
    .alias('rm')
    .argument('<theme>', 'the id of one of your custom themes')
    .description('Delete one of your custom themes')
    .addHelpText('after', '\nExample:\n  $ facet slides themes delete theme_0123456789abcdef --yes')
    .action((id: string) => run(id, deps));
}
