import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ApiOf } from '../../../client/index.js';
import { CliError } from '../../exit-codes.js';

/** The entries of a ZIP in memory, refusing any name that would land outside the target. */
async function unzipEntries(zip: Buffer): Promise<Array<{ name: string; data: Buffer | null }>> {
  const yauzl = await import('yauzl');
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (err, file) => {
      if (err || !file) return reject(err ?? new Error('bad zip'));
      const out: Array<{ name: string; data: Buffer | null }> = [];
      file.on('error', reject);
      file.on('end', () => resolve(out));
      file.on('entry', (entry: import('yauzl').Entry) => {
        if (entry.fileName.endsWith('/')) {
          out.push({ name: entry.fileName, data: null });
          return file.readEntry();
        }
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('bad entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

function safeTarget(dir: string, name: string): string {
  const target = path.resolve(dir, name);
  if (name.includes('\\') || path.isAbsolute(name) || !target.startsWith(path.resolve(dir) + path.sep)) {
    throw new CliError(`the archive holds an unsafe path: ${name}`);
  }
  return target;
}

/** Downloads a task's ZIP and unpacks it into dir; returns the files written (relative paths). */
export async function writeArtifacts(api: ApiOf<'tasks'>, taskId: string, dir: string): Promise<string[]> {
  const res = await api.tasks.zip(taskId);
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const entry of await unzipEntries(res.body)) {
    const target = safeTarget(dir, entry.name);
    if (entry.data === null) {
      await mkdir(target, { recursive: true });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, entry.data);
    written.push(entry.name);
  }
  return written;
}
