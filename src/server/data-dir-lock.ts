import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'serve.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One server per data dir: the job queue treats every running job it finds at start-up as
 * orphaned, which is only true when no other server uses the same records. A pid file left by a
 * server that died (kill -9) is taken over; one of a live process stops the start. The offline
 * `facet serve users|token|usage` commands do not take it: they may run beside the server.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (pid > 0 && pid !== process.pid && alive(pid)) {
      throw new Error(`another facet serve (pid ${pid}) is using ${dataDir}; stop it first, or give this one another --data-dir`);
    }
    writeFileSync(file, String(process.pid), { mode: 0o600 });
  }
  return () => {
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === process.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}
