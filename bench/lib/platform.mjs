// Starts the built `facet serve` on a free port with temporary dirs, for benchmarks.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startPlatform(args = [], options = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'facet-bench-data-'));
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-config-'));
  const proc = spawn(process.execPath, [path.join(ROOT, 'bin/facet.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', '--no-profile', ...args], {
    env: { ...process.env, FACET_CONFIG_DIR: configDir, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`facet serve did not start:\n${output}`)), 30_000);
    proc.stderr.on('data', (c) => {
      output += c;
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', () => reject(new Error(`facet serve exited:\n${output}`)));
  });
  const boot = JSON.parse(readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8'));
  return {
    url,
    dataDir,
    pid: proc.pid,
    key: boot.api_key,
    accessToken: boot.access_token,
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
