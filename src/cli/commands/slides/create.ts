import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { collect, intOption } from '../../io/parse.js';
import { addWaitOptions, printHistorical } from '../doc-tasks/commands.js';
import { printCreated } from '../../render/created.js';
import { waitForDocTask, type TaskGroup, type WaitOptions } from '../doc-tasks/wait.js';
import { saveDeck } from './download.js';

export interface CreateOptions extends Partial<WaitOptions> {
  livedoc?: string;
  resource?: string[];
  theme?: string;
  slides?: number;
  lang?: 'en' | 'zh-Hans';
  wait?: boolean;
  out?: string;
}

export async function run(query: string, opts: CreateOptions, group: TaskGroup, deps: Deps): Promise<void> {
  const api = await deps.api('slides', 'docTasks');
  const created = await api.slides.create({
    query,
    ...(opts.livedoc ? { livedoc_short_id: opts.livedoc } : {}),
    ...(opts.resource?.length ? { resource_ids: opts.resource } : {}),
    ...(opts.theme || opts.slides || opts.lang
      ? { ppt_config: { ai_theme_id: opts.theme, slide_count: opts.slides, lang: opts.lang } }
      : {}),
  });
  const io = deps.io();
  if (!opts.wait && !opts.out) {
    printCreated(io, created, [created.task_id], () => {
      io.fields([
        ['task', created.task_id],
        ['deck id', created.ppt_business_id],
        ['LiveDoc', created.livedoc_short_id],
      ]);
      io.info(`follow it with: facet slides wait ${created.task_id} --out deck.pptx`);
    });
    return;
  }
  const record = await waitForDocTask(
    api,
    created.task_id,
    { interval: opts.interval ?? 3, timeout: opts.timeout ?? 3600 },
    group,
    deps,
  );
  if (opts.out) await saveDeck(deps, record, opts.out);
  // Fewer slides than asked, and why (printHistorical says it on a terminal).
  if (record.note && (io.json || !io.stdoutIsTTY)) io.warn(record.note);
  // Piped, the task id alone, as every create verb (`TASK=$(facet slides create … --wait)`).
  printCreated(io, record, [record.task_id], () => printHistorical(deps, record));
}

export function register(parent: Command, group: TaskGroup, deps: Deps): void {
  const cmd = parent
    .command('create')
    .argument('<query>', 'what the deck is about')
    .description('Start a slide deck built from a LiveDoc (a new LiveDoc when --livedoc is not given)')
    .option('--livedoc <id>', 'the LiveDoc to build from (and store the deck in)')
    .option('--resource <id>', 'build from this resource only (repeatable)', collect)
    .option('--theme <id>', 'theme id (facet slides themes)')
    .option(
      '--slides <n>',
      'content slides at most, charts included (1-30, default 6; fewer when the sources run out; the title and takeaways slides come on top)',
      intOption(1, 30),
    )
    .addOption(
      new Option('--lang <lang>', "language of the deck's own words (default: from the query)").choices([
        'en',
        'zh-Hans',
      ]),
    )
    .option('--wait', 'wait until the deck is ready (exit 6 if the task ends FAILED, PENDING, EXPIRED or CANCELED)')
    .option('--out <file>', 'save the deck here once ready (implies --wait)');
  addWaitOptions(cmd)
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet slides create "Quarterly review" --livedoc ld_abc --theme midnight --wait --out review.pptx\n  $ facet slides create "Coffee brewing" --resource res_1 --resource res_2',
    )
    .action((query: string, opts: CreateOptions) => run(query, opts, group, deps));
}
