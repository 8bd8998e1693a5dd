import type { Command } from 'commander';
import type { TaskHistorical } from '../../../contract/doc-tasks.js';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';
import { requireOk, saveBody } from '../../io/download.js';

/** The deck's file sits under its viewer's signed URL, with the same signature (docs/decisions.md "Slide decks"). */
export function deckUrl(record: TaskHistorical): string {
  const url = new URL(record.ppt_url);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/deck.pptx`;
  return url.toString();
}

/** Saves a completed task's deck to `out` (default: deck-<task>.pptx); exit 6 when the task has none. */
export async function saveDeck(deps: Deps, record: TaskHistorical, out: string | undefined): Promise<string> {
  if (record.task_status !== 'COMPLETED') {
    throw new CliError(
      `task ${record.task_id} is ${record.task_status}${record.error_message ? `: ${record.error_message}` : ''}; it has no deck to download`,
      EXIT.taskFailed,
    );
  }
  const api = await deps.api();
  const res = requireOk(await api.transport.openLink(deckUrl(record)));
  const target = out ?? `deck-${record.task_id}.pptx`;
  await saveBody(deps, res, target);
  if (target !== '-') deps.io().info(`saved ${target}`);
  return target;
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('download')
    .argument('<task>', 'the task id (task_…)')
    .description("Download a completed task's deck (.pptx)")
    .option('--out <file>', 'where to save it (- for stdout; default deck-TASK.pptx)')
    .addHelpText('after', '\nExample:\n  $ facet slides download task_abc --out review.pptx')
    .action(async (id: string, opts: { out?: string }) => {
      const record = await (await deps.api('docTasks')).docTasks.historical(id);
      const saved = await saveDeck(deps, record, opts.out);
      if (saved !== '-') deps.io().print({ task_id: id, path: saved }, () => undefined);
    });
}
