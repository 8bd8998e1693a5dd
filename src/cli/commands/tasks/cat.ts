import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import { CliError } from '../../exit-codes.js';

export async function run(id: string, path: string, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  const io = deps.io();
  const content = await api.tasks.content(id, path);
  if (io.json) return io.printJson(content);
  if (content.kind !== 'text' && io.stdoutIsTTY) {
    io.fields([
      ['path', content.path],
      ['type', content.mime_type],
      ['size', content.size],
      ['modified', content.modified_at],
      ['download', content.download_url],
    ]);
    throw new CliError(
      `${path} is ${content.kind === 'image' ? 'an image' : 'binary'}; not printing it to a terminal`,
      1,
      `facet tasks download ${id} ${path} --out .`,
    );
  }
  // The whole file, not the preview: cat is for reading or piping it.
  const res = await api.tasks.download(id, path);
  deps.streams.stdout.write(res.body);
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('cat')
    .argument('<task-id>', 'the task id (task_…)')
    .argument('<path>', 'a file path from `facet tasks files`')
    .description('Print an artifact (--json: the preview and metadata of the content endpoint)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet tasks cat task_0123456789abcdef result.json | jq .images\n  $ facet tasks cat task_0123456789abcdef illustration-1.png > picture.png',
    )
    .action((id: string, path: string) => run(id, path, deps));
}
