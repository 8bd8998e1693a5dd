import { Option, type Command } from 'commander';
import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';
import { collect, intOption, numberOption } from '../../io/parse.js';
import { printCreated } from '../../render/created.js';
import { printTask } from '../../render/tasks.js';
import { facetCommand } from '../../io/follow-up.js';

export interface CreateOptions {
  kind: 'illustration' | 'screenshot';
  prompt?: string;
  url?: string;
  project?: string;
  site?: string;
  size?: string;
  count?: number;
  fullPage?: boolean;
  file?: string[];
  wait?: boolean;
  out?: string;
  interval: number;
  timeout: number;
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  if (opts.kind === 'illustration' && !opts.prompt) throw usageError('an illustration needs --prompt');
  if (opts.kind === 'screenshot' && !opts.url) throw usageError('a screenshot needs --url');
  if (opts.size && !/^\d+x\d+$/.test(opts.size))
    throw usageError(`--size is WxH, for example 1024x768 (got ${opts.size})`);
  const api = await deps.api('tasks');
  const io = deps.io();
  let task = await api.tasks.create({
    kind: opts.kind,
    prompt: opts.prompt,
    url: opts.url,
    size: opts.size,
    count: opts.count,
    full_page: opts.fullPage,
    project_id: opts.project,
    site_id: opts.site,
    files: opts.file,
  });
  if (!opts.wait && !opts.out) {
    printCreated(io, task, [task.id], () => printTask(io, task));
    io.info(`created ${task.id} (${task.status}); \`${facetCommand(deps, `tasks wait ${task.id}`)}\` follows it`);
    return;
  }
  const { waitForTask } = await import('./await.js');
  task = await waitForTask(api, task.id, opts, deps);
  if (opts.out) {
    const { writeArtifacts } = await import('./write-artifacts.js');
    const written = await writeArtifacts(api, task.id, opts.out);
    io.success(`wrote ${written.length} file(s) to ${opts.out}: ${written.join(', ')}`);
  }
  const done = task;
  printCreated(io, done, [done.id], () => printTask(io, done));
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('create')
    .description(
      'Start an illustration or screenshot task; --wait follows it, --out saves its files; piped, prints only its id',
    )
    .addOption(
      new Option('--kind <kind>', 'what to make').choices(['illustration', 'screenshot']).makeOptionMandatory(),
    )
    .option('--prompt <text>', 'what to illustrate (illustration)')
    .option('--url <url>', 'the page to capture (screenshot)')
    .option('--project <project-id>', 'the project (default: your default project)')
    .option('--site <site-id>', "a site of the project whose page's text is used as context")
    .option('--size <WxH>', 'image or viewport size (default 1024x768 / 1280x800)')
    .option('--count <n>', 'number of illustrations (1-4)', intOption(1, 4))
    .option('--full-page', 'capture the whole page, not only the viewport (screenshot)')
    .option('--file <path>', 'a reference file (repeatable)', collect)
    .option('--wait', 'wait until the task ends; exit 6 if it failed or was canceled')
    .option('--out <dir>', 'write the artifacts into DIR when done (implies --wait)')
    .option('--interval <s>', 'seconds between polls while waiting', numberOption(0.1), 1)
    .option('--timeout <s>', 'give up waiting after this many seconds (exit 1)', numberOption(1), 600)
    .addHelpText(
      'after',
      `
Examples:
  $ facet tasks create --kind illustration --prompt "a lighthouse at dawn" --size 800x600 --wait
  $ facet tasks create --kind screenshot --url https://example.org --full-page --wait --out ./shots
  $ TASK=$(facet tasks create --kind illustration --prompt "team offsite" --project prj_0123456789abcdef)`,
    )
    .action((opts: CreateOptions) => run(opts, deps));
}
