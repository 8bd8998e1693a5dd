import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';

const LOCK_FILE = 'serve.lock';
/** Only says who holds the lock, for the message; the lock itself is the kernel's. */
const PID_FILE = 'serve.pid';

/**
 * One server per data dir: the job queue treats every running job it finds at start-up as
 * orphaned, which is only true when no other server uses the same records.
 *
 * The lock is an exclusive SQLite lock on serve.lock — a POSIX record lock held by the kernel for
 * this process, which the kernel releases the moment the process dies, kill -9 included. So a
 * restart right after a crash succeeds, while a second live server (another process, or another
 * server in this one: SQLite tracks its own locks per file) is refused at once. A pid file would
 * need a liveness guess, and a killed process that is not yet reaped still looks alive.
 * The offline `facet serve users|token|usage` commands do not take it: they may run beside the
 * server. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const lock = new Sqlite(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // Nothing is ever written: no journal file beside the lock.
    lock.pragma('journal_mode = MEMORY');
    // Held for the life of the server; never committed.
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    const holder = readHolder(dataDir);
    throw new Error(
      `another facet serve${holder ? ` (pid ${holder})` : ''} is using ${dataDir}; stop it first, or give this one another --data-dir`,
      { cause: err },
    );
  }
  const pidFile = path.join(dataDir, PID_FILE);
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(pidFile, { force: true });
    lock.exec('ROLLBACK');
    lock.close();
  };
}

function readHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim());
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
