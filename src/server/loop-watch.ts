import { hostname } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/**
 * A stuck event loop is seen (ARCHITECTURE "The event loop is for I/O"). A timer on a stuck main
 * thread cannot fire, and neither can its SIGTERM handler, so the watch is a worker thread: the main
 * thread bumps a shared counter every HEARTBEAT_MS, and the watchdog, on its own loop, logs to
 * stderr when the counter stops moving for STALL_LOG_MS (then at each doubling), and past
 * `maxStallSeconds` (`facet serve --max-loop-stall`, 0 = never) ends the process with SIGKILL, so a
 * supervisor restarts it instead of it hanging forever with SIGTERM ignored.
 */
export const HEARTBEAT_MS = 100;
export const STALL_LOG_MS = 1_000;

export interface LoopWatchOptions {
  /** Seconds the loop may be stuck before the process is ended; 0 = only log. */
  maxStallSeconds: number;
  /** Stuck this long, the first line is logged (default STALL_LOG_MS). */
  logAfterMs?: number;
  /** JSON log mode: the lines are JSON objects shaped as the log's. */
  json?: boolean;
  /** Named in JSON lines (`--instance-id`). */
  instance?: string;
}

interface WatchdogData {
  beat: SharedArrayBuffer;
  logAfterMs: number;
  exitAfterMs: number;
  everyMs: number;
  /** Set in JSON log mode (the instance id is known once the server listens). */
  json?: { hostname: string; instance: string };
}

/**
 * The watchdog thread's code. It runs from its source text (an eval'd worker: no script to find,
 * bundled or not), so it uses nothing of this module's scope, only what it loads itself.
 */
function watchdog(): void {
  const data = process.getBuiltinModule('node:worker_threads').workerData as WatchdogData;
  const { writeSync } = process.getBuiltinModule('node:fs');
  const { beat, logAfterMs, exitAfterMs, everyMs, json } = data;
  const counter = new Int32Array(beat);
  const say = (line: string) => {
    const text = `facet serve: ${line}`;
    // A warn line (pino's level 40) as the main thread's log writes them.
    const out = json ? JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, ...json, msg: text }) : text;
    try {
      writeSync(2, `${out}\n`);
    } catch {
      // stderr gone: nothing to tell
    }
  };
  let last = Atomics.load(counter, 0);
  let since = performance.now();
  let logged = 0;
  setInterval(() => {
    const now = performance.now();
    const seen = Atomics.load(counter, 0);
    const seconds = ((now - since) / 1000).toFixed(1);
    if (seen !== last) {
      if (logged > 0) say(`the event loop answers again after ${seconds} s stuck`);
      last = seen;
      since = now;
      logged = 0;
      return;
    }
    if (exitAfterMs > 0 && now - since >= exitAfterMs) {
      say(
        `the event loop has been stuck for ${seconds} s, past --max-loop-stall ${exitAfterMs / 1000}: ending the process (SIGKILL) so its supervisor restarts it`,
      );
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    if (now - since >= logAfterMs * 2 ** logged) {
      logged++;
      say(
        `the event loop has been stuck for ${seconds} s: no request is answered meanwhile${exitAfterMs > 0 ? ` (the process ends at ${exitAfterMs / 1000} s, --max-loop-stall)` : ''}`,
      );
    }
  }, everyMs);
}

export interface LoopWatch {
  stop(): Promise<void>;
}

export function startLoopWatch(options: LoopWatchOptions): LoopWatch {
  const beat = new SharedArrayBuffer(4);
  const counter = new Int32Array(beat);
  const heartbeat = setInterval(() => Atomics.add(counter, 0, 1), HEARTBEAT_MS);
  heartbeat.unref();
  const data: WatchdogData = {
    beat,
    logAfterMs: options.logAfterMs ?? STALL_LOG_MS,
    exitAfterMs: options.maxStallSeconds * 1000,
    everyMs: HEARTBEAT_MS,
    json: options.json ? { hostname: hostname(), instance: options.instance ?? '' } : undefined,
  };
  const worker = new Worker(`(${watchdog.toString()})()`, { eval: true, workerData: data });
  // The watch never keeps the process alive, and its failure is not the server's.
  worker.unref();
  worker.on('error', () => {});
  return {
    async stop() {
      clearInterval(heartbeat);
      await worker.terminate();
    },
  };
}

export interface LoopDelay {
  /** Over the last minute (at most), in milliseconds. */
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** How late the event loop has been lately (perf_hooks), for /healthz. */
export function loopDelayMonitor(): { delay(): LoopDelay; stop(): void } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // A window of a minute: what /healthz reports is now, not the start-up's migrations.
  const window = setInterval(() => h.reset(), 60_000);
  window.unref();
  const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e4) / 100 : 0);
  return {
    delay: () => ({ p50_ms: ms(h.percentile(50)), p99_ms: ms(h.percentile(99)), max_ms: ms(h.max) }),
    stop() {
      clearInterval(window);
      h.disable();
    },
  };
}
