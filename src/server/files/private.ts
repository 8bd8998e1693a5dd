import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Everything the server writes is private to its owner: the database holds the token secret, so a
 * readable copy of it is enough to sign an admin token. A umask of 077 makes that true of every file
 * and folder this process creates — the database, its WAL and SHM (SQLite creates them with 0644
 * minus the umask), uploads, task outputs and whatever later features write — rather than relying on
 * each writer to pass a mode. It is process-wide, so the CLI entry sets it (`facet serve` and its
 * data-dir verbs), never the server library: an embedder's process keeps its own, and its data dir
 * is still 0700. Worker threads cannot change the umask; they inherit the process's.
 */
export function makeNewFilesPrivate(): void {
  if (isMainThread) process.umask(0o077);
}

/**
 * Creates the data dir 0700, or tightens one that exists with looser modes (made by an older
 * version or by hand): every folder below it becomes 0700 and every file 0600. Symlinks are left as
 * they are. Returns how many entries were tightened, so the caller can say so once.
 */
export function preparePrivateDataDir(dataDir: string): number {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const top = lstatSync(dataDir);
  // A data dir that is already private hides whatever is inside it: no walk on the usual start.
  if ((top.mode & 0o077) === 0) return 0;
  return tighten(dataDir);
}

function tighten(entry: string): number {
  const st = lstatSync(entry);
  if (st.isSymbolicLink()) return 0;
  let changed = 0;
  const wanted = st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
  if ((st.mode & 0o777 & ~wanted) !== 0) {
    chmodSync(entry, st.mode & 0o777 & wanted);
    changed++;
  }
  if (st.isDirectory()) for (const name of readdirSync(entry)) changed += tighten(path.join(entry, name));
  return changed;
}
