import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FileStore } from './file-store.js';
import { mimeTypeOf } from './mime.js';

export interface FilesSummary {
  files: number;
  bytes: number;
}

/** Every regular file under `dir`, relative to it, with its size. */
function walk(dir: string, prefix = ''): Array<[string, number]> {
  if (!existsSync(dir)) return [];
  const out: Array<[string, number]> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...walk(path.join(dir, entry.name), rel));
    else if (entry.isFile()) out.push([rel, statSync(path.join(dir, entry.name)).size]);
  }
  return out;
}

/**
 * Copies a files directory into another (uploads, task outputs), leaving the source as it is, then
 * checks that every file arrived with its size. The directory's identity file is not copied: the
 * target keeps (or makes) its own.
 */
export function copyFilesDir(from: string, to: string): FilesSummary {
  const files = walk(from).filter(([rel]) => rel !== '.facet-files-id');
  cpSync(from, to, {
    recursive: true,
    force: false,
    errorOnExist: false,
    filter: (src) => path.basename(src) !== '.facet-files-id',
  });
  const arrived = new Map(walk(to));
  for (const [rel, size] of files) {
    if (arrived.get(rel) !== size) throw new Error(`file ${rel} did not arrive whole in ${to}`);
  }
  return { files: files.length, bytes: files.reduce((n, [, size]) => n + size, 0) };
}

/** Folders of a files dir that hold only work in progress (upload parts, engine scratch): never copied to a store. */
const SCRATCH = new Set(['tmp', 'work']);

/**
 * Copies a files directory into a file store (an object store) under the same keys, streamed file by
 * file, leaving the source as it is; then lists the store and checks that every file is there with
 * its size. The identity file stays behind (the store has or makes its own), so do scratch folders.
 */
export async function copyFilesToStore(from: string, store: FileStore): Promise<FilesSummary> {
  const files = walk(from)
    .map(([rel, size]) => [rel.split(path.sep).join('/'), size] as [string, number])
    .filter(([key]) => key !== '.facet-files-id' && !SCRATCH.has(key.split('/')[0]));
  for (const [key] of files) await store.putFile(key, path.join(from, ...key.split('/')), mimeTypeOf(key));
  const arrived = new Map<string, number>();
  for (const top of new Set(files.map(([key]) => key.split('/')[0]))) {
    for (const f of await store.list(top)) arrived.set(f.key, f.size);
  }
  for (const [key, size] of files) {
    if (arrived.get(key) !== size) throw new Error(`file ${key} did not arrive whole in ${store.location}`);
  }
  return { files: files.length, bytes: files.reduce((n, [, size]) => n + size, 0) };
}
