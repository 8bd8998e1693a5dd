import { mkdir, writeFile } from 'node:fs/promises';
import nodePath from 'node:path';
import type { Command } from 'commander';
import type { Deps } from '../../deps.js';

export interface DownloadOptions {
  out?: string;
  zip?: boolean;
}

export async function run(id: string, path: string | undefined, opts: DownloadOptions, deps: Deps): Promise<void> {
  const api = await deps.api('tasks');
  const io = deps.io();
  const dir = opts.out ?? (path ? '.' : id);
  if (path) {
    const res = await api.tasks.download(id, path);
    const target = nodePath.join(dir, nodePath.posix.basename(path));
    await mkdir(dir, { recursive: true });
    await writeFile(target, res.body);
    io.print({ task_id: id, files: [target] }, () => io.write(target + '\n'));
    return;
  }
  if (opts.zip) {
    const res = await api.tasks.zip(id);
    const target = nodePath.join(dir, `${id}.zip`);
    await mkdir(dir, { recursive: true });
    await writeFile(target, res.body);
    io.print({ task_id: id, files: [target] }, () => io.write(target + '\n'));
    return;
  }
  const { writeArtifacts } = await import('./write-artifacts.js');
  const written = (await writeArtifacts(api, id, dir)).map((f) => nodePath.join(dir, f));
  io.print({ task_id: id, files: written }, () => {
    for (const f of written) io.write(f + '\n');
  });
}

export function register(parent: Command, deps: Deps): void {
  parent
    .command('download')
    .argument('<task-id>', 'the task id (task_…)')
    .argument('[path]', 'one file; without it, every artifact (the ZIP, unpacked)')
    .option('--out <dir>', 'where to write (default: . for one file, ./TASK_ID for all)')
    .option('--zip', 'keep the ZIP as TASK_ID.zip instead of unpacking it')
    .description("Download a task's artifacts; prints the paths written")
    .addHelpText(
      'after',
      '\nExamples:\n  $ facet tasks download task_0123456789abcdef --out ./out\n  $ facet tasks download task_0123456789abcdef illustration-1.png',
    )
    .action((id: string, path: string | undefined, opts: DownloadOptions) => run(id, path, opts, deps));
}
