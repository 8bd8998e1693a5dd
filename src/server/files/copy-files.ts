import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
  cpSync(from, to, { recursive: true, force: false, errorOnExist: false, filter: (src) => path.basename(src) !== '.facet-files-id' });
  const arrived = new Map(walk(to));
  for (const [rel, size] of files) {
    if (arrived.get(rel) !== size) throw new Error(`file ${rel} did not arrive whole in ${to}`);
  }
  return { files: files.length, bytes: files.reduce((n, [, size]) => n + size, 0) };
}
