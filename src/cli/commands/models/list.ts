import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';

export interface ListOptions {
  provider?: string;
  kind?: string;
}

const KINDS = ['chat', 'image_generation', 'video_generation', 'decisions', 'image-task'];

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api('modelApi', 'models');
  const io = deps.io();
  if (opts.kind === 'image-task') {
    // The image task service's own models: no credentials needed.
    const { models: list } = await api.models.listImage();
    io.print(list, () =>
      io.table(list, [
        { header: 'ID', value: (m) => m.id },
        { header: 'KIND', value: (m) => m.kind },
        { header: 'DEFAULT SIZE', value: (m) => m.default_size },
        { header: 'DESCRIPTION', value: (m) => m.description },
      ]),
    );
    return;
  }
  const { data } = await api.modelApi.list({ provider: opts.provider });
  const models = opts.kind ? data.filter((m) => m.model_kind === opts.kind) : data;
  io.print(models, () =>
    io.table(
      models,
      [
        { header: 'ID', value: (m) => m.id },
        { header: 'KIND', value: (m) => m.model_kind },
        { header: 'PROVIDER', value: (m) => m.owned_by },
      ],
      { empty: 'No models match.' },
    ),
  );
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('list')
    .alias('ls')
    .description('List the discoverable models of /api/v1 (never calls or charges a model)')
    .option('--provider <name>', 'only models of this provider')
    .addOption(
      new Option(
        '--kind <kind>',
        'only this kind; image-task lists the image task service models (no key needed)',
      ).choices(KINDS),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet models list\n  $ facet models list --provider corvid --kind chat --json | jq -r ".[].id"\n  $ facet models list --kind image-task',
    )
    .action((opts: ListOptions) => run(opts, deps));
}
