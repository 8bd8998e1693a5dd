import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';

/** show and hide are one decision with two values, so they share this file. */
export async function run(id: string, listed: boolean, deps: Deps): Promise<void> {
  const api = await deps.api('adminModels');
  const m = listed ? await api.adminModels.show(id) : await api.adminModels.hide(id);
  const io = deps.io();
  io.print(m, () => {
    io.success(
      `${m.id} is ${m.listed ? 'listed' : 'hidden'}${m.listed && !m.offered ? ', but not offered (disabled, deleted or unpriced)' : ''}`,
    );
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('show')
    .argument('<id>', 'catalog model id')
    .description('List a model: callers can discover and call it')
    .addHelpText('after', '\nExample:\n  $ facet admin models show aster-next-preview')
    .action((id: string) => run(id, true, deps));
  parent
    .command('hide')
    .argument('<id>', 'catalog model id')
    .description('Hide a model from discovery and calls')
    .addHelpText('after', '\nExample:\n  $ facet admin models hide strata-3-pro')
    .action((id: string) => run(id, false, deps));
}
