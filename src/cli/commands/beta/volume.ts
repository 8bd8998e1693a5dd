import type { Command } from 'commander';
import type { VolumeResult } from '../../../contract/beta-seo.js';
import type { Deps } from '../../deps.js';
import { printOutcome, taskResult } from './envelope-output.js';

export interface VolumeOptions {
  location: string;
  language: string;
  adEngine?: boolean;
  raw?: boolean;
}

export async function run(keywords: string[], opts: VolumeOptions, deps: Deps): Promise<void> {
  const api = await deps.api('beta');
  const io = deps.io();
  // A number names a location code, anything else a location name; a 2-letter word a language code.
  const task: Record<string, unknown> = { keywords };
  if (/^\d+$/.test(opts.location)) task.location_code = Number(opts.location);
  else task.location_name = opts.location;
  if (/^[a-z]{2}$/i.test(opts.language)) task.language_code = opts.language;
  else task.language_name = opts.language;
  if (opts.adEngine) task.use_clickstream = false;
  const env = await api.beta.volume([task]);
  const result = taskResult<VolumeResult>(env);
  printOutcome(io, opts, [env], result, () => {
    io.table(result[0].items, [
      { header: 'KEYWORD', value: (i) => i.keyword },
      { header: 'VOLUME', value: (i) => i.search_volume },
      {
        header: 'LAST 12 MONTHS (NEWEST FIRST)',
        value: (i) => i.monthly_searches.map((m) => m.search_volume).join(' '),
      },
    ]);
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('volume')
    .argument('<keywords...>', 'one or more keywords (at most 1000; lowercased)')
    .description('Monthly search volume of keywords')
    .option('--location <code|name>', 'location code (2840) or name (United States)', '2840')
    .option('--language <code|name>', 'language code (en) or name (English)', 'en')
    .option('--ad-engine', 'use ad-engine volume where the location supports it (use_clickstream false)')
    .option('--raw', 'print the whole provider envelope')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet beta volume "running shoes" tea --location 2840 --language en\n  $ facet beta volume tea --location Germany --language de --json',
    )
    .action((keywords: string[], opts: VolumeOptions) => run(keywords, opts, deps));
}
