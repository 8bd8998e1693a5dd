import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError, EXIT } from '../../exit-codes.js';

/** The command that hands a URL to the desktop's browser, by platform. */
function opener(platform: NodeJS.Platform): { cmd: string; args: (url: string) => string[] } {
  if (platform === 'darwin') return { cmd: 'open', args: (u) => [u] };
  if (platform === 'win32') return { cmd: 'cmd', args: (u) => ['/c', 'start', '""', u] };
  return { cmd: 'xdg-open', args: (u) => [u] };
}

/**
 * Prints the page's URL (an expiring signed link) on stdout. With --browser it also opens it, but
 * only for a person at a terminal: never when stdout is piped, under CI or with --no-input, so a
 * script or a test is never left waiting on a browser.
 */
export async function run(id: string, opts: { browser?: boolean }, deps: Deps): Promise<void> {
  const record = await (await deps.api('docTasks')).docTasks.historical(id);
  if (!record.ai_page_html) {
    throw new CliError(`landing page task ${id} is ${record.task_status}: it has no page${record.error_message ? ` (${record.error_message})` : ''}`, record.task_status === 'RUNNING' ? EXIT.failure : EXIT.taskFailed, record.task_status === 'RUNNING' ? `wait for it: facet pages wait ${id}` : undefined);
  }
  deps.io().write(`${record.ai_page_html}\n`);
  if (!opts.browser) return;
  const interactive = deps.streams.stdout.isTTY && deps.canPrompt();
  if (!interactive) {
    deps.io().info('not opening a browser: not an interactive terminal (the URL is above)');
    return;
  }
  const o = opener(process.platform);
  const child = spawn(o.cmd, o.args(record.ai_page_html), { stdio: 'ignore', detached: true });
  child.on('error', () => deps.io().warn(`could not start ${o.cmd}; open the URL above yourself`));
  child.unref();
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('open')
    .argument('<task>', 'the task id (task_…)')
    .description("Print the landing page's URL (a signed link valid 7 days); --browser also opens it on a terminal")
    .option('--browser', 'open it in the default browser (interactive terminals only)')
    .action((id: string, opts: { browser?: boolean }) => run(id, opts, deps));
}
