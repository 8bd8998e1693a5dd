import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';

export async function run(deps: Deps): Promise<void> {
  const api = await deps.api('adminModels');
  const { models } = await api.adminModels.list();
  const io = deps.io();
  io.print(models, () =>
    io.table(models, [
      { header: 'ID', value: (m) => m.id },
      { header: 'KIND', value: (m) => m.model_kind },
      { header: 'PROVIDER', value: (m) => m.owned_by },
      { header: 'API', value: (m) => m.api },
      { header: 'LISTED', value: (m) => (m.listed ? 'yes' : 'no') },
      {
        header: 'OFFERED',
        value: (m) =>
          m.offered
            ? 'yes'
            : `no${m.deleted ? ' (deleted)' : !m.enabled ? ' (disabled)' : !m.priced ? ' (no price)' : ''}`,
      },
      { header: 'INPUT $/1M', value: (m) => m.pricing.input },
      { header: 'OUTPUT $/1M', value: (m) => m.pricing.output },
    ]),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('Every catalog model, listed or hidden, with the flags that decide discovery')
    .addHelpText(
      'after',
      '\nExample:\n  $ facet admin models list --json | jq -r ".[] | select(.listed == false) | .id"',
    )
    .action(() => run(deps));
}
