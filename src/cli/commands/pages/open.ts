import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';

/**
 * Prints the page's URL (an expiring signed link) on stdout. With --browser it also opens it, but
 * only for a person at a terminal: never when stdout is piped, under CI or with --no-input, so a
 * script or a test is never left waiting on a browser.
 */
export async function run(id: string, opts: { browser?: boolean }, deps: Deps): Promise<void> {
  const record = await (await deps.api('docTasks')).docTasks.historical(id);
  if (!record.ai_page_html) {
    throw new CliError(
      `landing page task ${id} is ${record.task_status}: it has no page${record.error_message ? ` (${record.error_message})` : ''}`,
      record.task_status === 'RUNNING' ? EXIT.failure : EXIT.taskFailed,
      record.task_status === 'RUNNING' ? `wait for it: facet pages wait ${id}` : undefined,
    );
  }
  deps.io().write(`${record.ai_page_html}\n`);
  if (!opts.browser) return;
  const interactive = deps.streams.stdout.isTTY && deps.canPrompt();
  if (!interactive) {
    deps.io().info('not opening a browser: not an interactive terminal (the URL is above)');
    return;
  }
  // The open package hands the URL over as one argument on every platform (no shell parses a signed
  // link's `&`); imported here so no other command pays for loading it.
  const { default: open } = await import('open');
  try {
    await open(record.ai_page_html);
  } catch (err) {
    deps.io().warn(`could not open a browser (${(err as Error).message}); open the URL above yourself`);
  }
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('open')
    .argument('<task>', 'the task id (task_…)')
    .description("Print the landing page's URL (a signed link valid 7 days); --browser also opens it on a terminal")
    .option('--browser', 'open it in the default browser (interactive terminals only)')
    .action((id: string, opts: { browser?: boolean }) => run(id, opts, deps));
}
