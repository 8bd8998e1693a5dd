import type { Command } from 'commander';
import type { TaskHistorical } from '../../../contract/doc-tasks.js';
import type { Deps } from '../../deps.js';
import { CliError, EXIT, usageError } from '../../exit-codes.js';
import { waitForDocTask, type TaskGroup, type WaitOptions } from './wait.js';
import { facetCommand } from '../../io/follow-up.js';

/** Spec 3 advises polling every 2-5 seconds; the CLI keeps to that. */
export function pollInterval(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 2 || n > 5)
    throw usageError(`--interval must be 2 to 5 seconds, as the API advises (got ${JSON.stringify(value)})`);
  return n;
}

/** The options every command that waits on a task takes. */
export function addWaitOptions(cmd: Command): Command {
  return cmd.option('--interval <s>', 'seconds between polls, 2-5', pollInterval, 3).option(
    '--timeout <s>',
    'give up waiting after this many seconds (the task goes on)',
    (v: string) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 1)
        throw usageError(`--timeout must be a number of seconds >= 1 (got ${JSON.stringify(v)})`);
      return n;
    },
    3600,
  );
}

export function printHistorical(deps: Deps, record: TaskHistorical): void {
  const io = deps.io();
  // Fewer slides than --slides asked for: the server says why, on stderr even with --json.
  if (record.note) io.warn(record.note);
  io.print(record, () =>
    io.fields([
      ['task', record.task_id],
      ['status', record.task_status],
      ...(record.kind ? ([['kind', record.kind]] as Array<[string, unknown]>) : []),
      ['business id', record.ppt_biz_id],
      ...(record.error_message ? ([['error', record.error_message]] as Array<[string, unknown]>) : []),
      ['LiveDoc', record.live_doc_short_id ?? ''],
      ['view', record.ppt_url],
      ...(record.ai_page_html ? ([['page', record.ai_page_html]] as Array<[string, unknown]>) : []),
      ['LiveDoc page', record.live_doc_url ?? ''],
      ...(record.content_slides !== undefined
        ? ([['slides', `${record.content_slides} of ${record.slides_requested} asked for`]] as Array<[string, unknown]>)
        : []),
      ['created', record.created_at ?? ''],
      ['finished', record.finished_at ?? ''],
    ]),
  );
}

/**
 * `status`, `get`, `wait`, `cancel` and `retry` of a task group: the same five for slides and
 * landing pages, since both kinds are read through /v2/tasks/{id}. `onCompleted` lets a group
 * save its output after `wait` (the deck, the page).
 */
export function registerTaskCommands(
  parent: Command,
  group: TaskGroup,
  deps: Deps,
  options: { onCompleted?: (record: TaskHistorical, out: string | undefined) => Promise<void>; outHelp?: string } = {},
): void {
  parent
    .command('status')
    .argument('<task>', 'the task id (task_…)')
    .description(`The status of a ${group.noun} task: RUNNING, COMPLETED, FAILED, PENDING, EXPIRED or CANCELED`)
    .action(async (id: string) => {
      const data = await (await deps.api('docTasks')).docTasks.status(id);
      const io = deps.io();
      io.print(data, () => io.write(`${data.status}\n`));
    });
  parent
    .command('get')
    .argument('<task>', 'the task id (task_…)')
    .description(`The historical record of a ${group.noun} task (status, error, links)`)
    .action(async (id: string) => printHistorical(deps, await (await deps.api('docTasks')).docTasks.historical(id)));
  const wait = parent
    .command('wait')
    .argument('<task>', 'the task id (task_…)')
    .description(
      `Wait for a ${group.noun} task: exit 0 when COMPLETED, 6 when it ends FAILED, PENDING, EXPIRED or CANCELED`,
    );
  addWaitOptions(wait);
  if (options.onCompleted) wait.option('--out <file>', options.outHelp ?? 'save the result to FILE');
  wait.action(async (id: string, opts: WaitOptions & { out?: string }) => {
    const record = await waitForDocTask(await deps.api('docTasks'), id, opts, group, deps);
    if (options.onCompleted) await options.onCompleted(record, opts.out);
    printHistorical(deps, record);
  });
  parent
    .command('cancel')
    .argument('<task>', 'the task id (task_…)')
    .description(`Cancel a running ${group.noun} task (one already canceled: exit 0; one that ended otherwise: exit 1)`)
    .action(async (id: string) => {
      const record = await (await deps.api('docTasks')).docTasks.cancel(id);
      // The same answer as `tasks cancel`: an ended task was not canceled now, and the exit says so.
      if (record.task_status !== 'CANCELED')
        throw new CliError(
          `${group.noun} task ${id} has already ended (${record.task_status}); only a running task can be canceled`,
          EXIT.failure,
        );
      printHistorical(deps, record);
    });
  parent
    .command('retry')
    .argument('<task>', 'the task id (task_…)')
    .description(`Run a PENDING or FAILED ${group.noun} task again`)
    .action(async (id: string) => {
      const record = await (await deps.api('docTasks')).docTasks.retry(id);
      deps
        .io()
        .info(
          `${group.noun} task ${id} queued again; follow it with: ${facetCommand(deps, `${group.command} wait ${id}`)}`,
        );
      printHistorical(deps, record);
    });
}
