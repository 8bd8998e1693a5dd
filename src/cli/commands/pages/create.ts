import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';
import { collect } from '../../io/parse.js';
import { printCreated } from '../../render/created.js';
import { addWaitOptions, printHistorical } from '../doc-tasks/commands.js';
import { waitForDocTask, type WaitOptions } from '../doc-tasks/wait.js';
import { LANDING_PAGE_CREDITS, STREAM_PROTOCOLS } from '../../../contract/landing-pages.js';
import { PAGES_GROUP } from './group.js';
import { savePage } from './save.js';

interface Options extends WaitOptions {
  file?: string;
  livedoc?: string;
  resource?: string[];
  streamProtocol?: string;
  wait?: boolean;
  out?: string;
}

export async function run(query: string, opts: Options, deps: Deps): Promise<void> {
  if (opts.out && !opts.wait) throw usageError('--out saves the finished page: add --wait');
  if (opts.file && opts.resource?.length)
    throw usageError("--file and --resource do not go together: the uploaded file is the page's context");
  const api = await deps.api('landingPages', 'docTasks');
  const io = deps.io();
  const created = await api.landingPages.create({
    query,
    file: opts.file,
    livedoc_short_id: opts.livedoc,
    resource_ids: opts.resource?.length ? opts.resource : undefined,
    stream_protocol: opts.streamProtocol,
  });
  if (created.credits.cost !== null)
    io.info(`charged ${created.credits.cost} credits; ${created.credits.remaining ?? '?'} left`);
  if (!opts.wait) {
    printCreated(io, { task_id: created.task_id }, [created.task_id], () => {
      io.fields([['task', created.task_id]]);
      io.info(`follow it with: facet pages wait ${created.task_id} --out page.html`);
    });
    return;
  }
  const record = await waitForDocTask(api, created.task_id, opts, PAGES_GROUP, deps);
  await savePage(deps, record, opts.out);
  printCreated(io, record, [record.task_id], () => printHistorical(deps, record));
}

export function register(parent: Command, deps: Deps): void {
  const cmd = parent
    .command('create')
    .argument('<query>', 'what the page is about (1-2000 characters)')
    .description(
      `Start a landing page written from a LiveDoc (costs ${LANDING_PAGE_CREDITS} credits; a FAILED task gives them back)`,
    )
    .option('--file <path>', 'a document to upload into the LiveDoc first and write the page from')
    .option('--livedoc <id>', 'the LiveDoc to write from (default: a new one)')
    .option('--resource <id>', 'only these resources of the LiveDoc (repeatable, up to 50)', collect)
    .option('--stream-protocol <name>', `the task's stream protocol (${STREAM_PROTOCOLS.join(', ')})`)
    .option('--wait', 'wait for the page (exit 6 when the task ends FAILED, PENDING, EXPIRED or CANCELED)')
    .option('--out <file>', 'with --wait: save the page to FILE');
  addWaitOptions(cmd);
  cmd
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet pages create "Home solar: costs and savings" --file solar.md --wait --out page.html\n  $ facet pages create "Our product" --livedoc ld_x --resource res_a --resource res_b',
    )
    .action((query: string, opts: Options) => run(query, opts, deps));
}
