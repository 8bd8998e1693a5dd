import { readFileSync, readlinkSync } from 'node:fs';

/**
 * A job's own CPU time, so its limit counts the work it did, not the time it waited for a core
 * (issue 46: on a loaded machine small jobs hit a wall-clock limit). Node 20 has no
 * process.threadCpuUsage(), and process.cpuUsage() in a worker thread is the whole process's; Linux
 * keeps each thread's and each process's CPU time in /proc, which the pool reads while the job runs.
 * Elsewhere there is no reading (null) and the pool falls back to wall time.
 */

/** Milliseconds per clock tick of /proc's utime and stime (USER_HZ, 100 on every Linux ABI). */
const MS_PER_TICK = 10;

/** CPU ticks (user + system) from a /proc stat line, or null when it cannot be read. */
export function ticksOf(statPath: string): number | null {
  let text: string;
  try {
    text = readFileSync(statPath, 'latin1');
  } catch {
    return null;
  }
  // The command name, in parentheses, may hold spaces: fields are counted after its end.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks : null;
}

export const ticksToMs = (ticks: number): number => ticks * MS_PER_TICK;

let ownTid: number | null | undefined;

/** This thread's id in /proc/self/task (a worker thread reads its own), or null off Linux. */
export function threadId(): number | null {
  if (ownTid === undefined) {
    try {
      ownTid = Number(readlinkSync('/proc/thread-self').split('/').pop()) || null;
    } catch {
      ownTid = null;
    }
  }
  return ownTid;
}

/**
 * Shared between the pool and the worker thread running one job: the worker writes its thread id
 * and its CPU ticks when the job starts; the pool then reads the thread's ticks from /proc.
 */
export class JobClock {
  readonly shared = new Int32Array(new SharedArrayBuffer(8));

  /** In the worker, as the job starts. */
  static started(shared: Int32Array | undefined): void {
    if (!shared) return;
    const tid = threadId();
    const ticks = tid ? ticksOf(`/proc/thread-self/stat`) : null;
    if (tid === null || ticks === null) {
      Atomics.store(shared, 0, -1);
      return;
    }
    Atomics.store(shared, 1, ticks);
    Atomics.store(shared, 0, tid);
  }

  /** CPU milliseconds the job has used so far; 0 before it started, null when not measurable. */
  usedMs(): number | null {
    const tid = Atomics.load(this.shared, 0);
    if (tid === 0) return 0;
    if (tid < 0) return null;
    const now = ticksOf(`/proc/self/task/${tid}/stat`);
    return now === null ? null : ticksToMs(now - Atomics.load(this.shared, 1));
  }
}

/** A child process's CPU time since it was handed a job (its own process: its whole /proc stat). */
export function processClock(pid: number | undefined): () => number | null {
  const path = `/proc/${pid}/stat`;
  const start = pid === undefined ? null : ticksOf(path);
  return () => {
    if (start === null) return null;
    const now = ticksOf(path);
    return now === null ? null : ticksToMs(now - start);
  };
}
