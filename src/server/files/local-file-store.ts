import { createReadStream } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileStore, StoredFile } from './file-store.js';
import { filesDirIdentity } from './files-identity.js';

/**
 * The files dir as a store: keys are paths below it, exactly where the server always kept its files.
 * Reads never follow a symlink or leave the directory, whatever a key or an engine's output holds.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  readonly location: string;

  constructor(readonly root: string) {
    this.location = root;
  }

  private full(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }

  /** The real path of a regular file inside the root, or null (missing, reached through a symlink, not a file). */
  private async regular(key: string): Promise<{ full: string; size: number; mtime: Date } | null> {
    const full = this.full(key);
    const st = await lstat(full).catch(() => undefined);
    if (!st || st.isSymbolicLink() || !st.isFile()) return null;
    const [root, real] = await Promise.all([realpath(this.root), realpath(full)]).catch(() => [null, null]);
    // No symlink anywhere on the way: the real path is exactly the key below the real root.
    if (!root || !real || real !== path.join(root, ...key.split('/'))) return null;
    return { full: real, size: st.size, mtime: st.mtime };
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    const full = this.full(key);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, data);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const full = this.full(key);
    await mkdir(path.dirname(full), { recursive: true });
    await copyFile(localPath, full);
  }

  async get(key: string): Promise<Buffer | null> {
    const f = await this.regular(key);
    return f ? readFile(f.full) : null;
  }

  async stream(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const f = await this.regular(key);
    return f ? createReadStream(f.full, range) : null;
  }

  async stat(key: string): Promise<StoredFile | null> {
    const f = await this.regular(key);
    return f ? { key, size: f.size, modified: f.mtime } : null;
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return;
      }
      for (const name of names) {
        const full = path.join(dir, name);
        const st = await lstat(full).catch(() => undefined);
        if (!st || st.isSymbolicLink()) continue;
        const key = `${keyPrefix}/${name}`;
        if (st.isDirectory()) await walk(full, key);
        else if (st.isFile()) out.push({ key, size: st.size, modified: st.mtime });
      }
    };
    await walk(this.full(prefix), prefix);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    await rm(this.full(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.full(prefix), { recursive: true, force: true });
  }

  workDir(prefix: string): string {
    return this.full(prefix);
  }

  async publishDir(): Promise<void> {
    // The work dir is the stored folder itself.
  }

  presignGet(): Promise<null> {
    return Promise.resolve(null);
  }

  async identity(): Promise<string> {
    // The bare id, as instances of earlier versions record it: a rolling upgrade keeps agreeing.
    return filesDirIdentity(this.root);
  }
}
