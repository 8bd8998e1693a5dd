import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

export function register(program: Command, deps: Deps): void {
  const models = program.command('models').description('Models the platform offers');
  models
    .command('list')
    .alias('ls')
    .description('List the image models (no credentials needed)')
    .action(async () => {
      const api = await deps.api();
      const { models: list } = await api.models.listImage();
      const io = deps.io();
      io.print(list, () =>
        io.table(list, [
          { header: 'ID', value: (m) => m.id },
          { header: 'KIND', value: (m) => m.kind },
          { header: 'DEFAULT SIZE', value: (m) => m.default_size },
          { header: 'DESCRIPTION', value: (m) => m.description },
        ]),
      );
    });
}
