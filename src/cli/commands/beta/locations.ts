import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { printOutcome, taskResult } from './envelope-output.js';

interface Location {
  location_code: number;
  location_name: string;
  country_iso_code: string;
  location_type: string;
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('locations')
    .argument('<store>', 'google_play or apple')
    .description('Locations an app store can be queried for')
    .option('--raw', 'print the whole provider envelope')
    .addHelpText('after', '\nExamples:\n  $ facet beta locations google_play\n  $ facet beta locations apple --json')
    .action(async (store: string, opts: { raw?: boolean }) => {
      const env = await (await deps.api('beta')).beta.appLocations(store);
      const list = taskResult<Location>(env);
      const io = deps.io();
      printOutcome(io, opts, [env], list, () =>
        io.table(list, [
          { header: 'CODE', value: (l) => l.location_code },
          { header: 'NAME', value: (l) => l.location_name },
          { header: 'COUNTRY', value: (l) => l.country_iso_code },
          { header: 'TYPE', value: (l) => l.location_type },
        ]),
      );
    });
}
