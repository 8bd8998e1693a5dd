// Starts the built `facet serve` on a free port with temporary dirs, for benchmarks.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startPlatform(args = [], options = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'facet-bench-data-'));
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-config-'));
  // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  // options.inspect: the server listens for the inspector on a free loopback port (liveMemory below).
  const inspect = options.inspect ? ['--inspect=127.0.0.1:0'] : [];
  const proc = spawn(
    process.execPath,
    [
      ...profile,
      ...inspect,
      path.join(ROOT, 'bin/facet.js'),
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
      '--no-profile',
      ...args,
    ],
    {
      env: { ...process.env, FACET_CONFIG_DIR: configDir, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`facet serve did not start:\n${output}`)), 30_000);
    proc.stderr.on('data', (c) => {
      output += c;
      const m = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', () => reject(new Error(`facet serve exited:\n${output}`)));
  });
  const boot = JSON.parse(readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8'));
  const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
  return {
    /**
     * The server's live memory: a full garbage collection through the inspector, then
     * process.memoryUsage() (bytes). RSS alone counts garbage V8 has not collected yet.
     */
    async liveMemory() {
      if (!inspectorUrl) throw new Error('start the platform with { inspect: true }');
      const { WebSocket } = await import('undici');
      const ws = new WebSocket(inspectorUrl);
      await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
      let id = 0;
      const pending = new Map();
      ws.onmessage = (e) => {
        const msg = JSON.parse(String(e.data));
        pending.get(msg.id)?.(msg);
      };
      const call = (method, params = {}) =>
        new Promise((resolve) => {
          pending.set(++id, resolve);
          ws.send(JSON.stringify({ id, method, params }));
        });
      await call('HeapProfiler.collectGarbage');
      const r = await call('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      });
      ws.close();
      return JSON.parse(r.result.result.value);
    },
    url,
    dataDir,
    pid: proc.pid,
    key: boot.api_key,
    accessToken: boot.access_token,
    /** What the server has written on stderr so far (its start-up report among it). */
    output: () => output,
    rssKb() {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    },
    /** Stops the server; `keepData` leaves the data dir for another server (a restart). */
    async stop({ keepData = false } = {}) {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so every run indexes the same corpus. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
