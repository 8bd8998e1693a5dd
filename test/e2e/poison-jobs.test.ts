import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { execa } from 'execa';

/**
 * Issue 32: a task that takes the server down is not run for ever. Its runs here hang on a site page
 * that never answers (as a frozen engine would); the server is killed with SIGKILL while it runs.
 */
const held: http.ServerResponse[] = [];
let site: { url: string; close(): void };
const platforms: Platform[] = [];

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    if (req.url === '/hang') held.push(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const r of held.splice(0)) r.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
});
afterAll(() => {
  site?.close();
  for (const p of platforms) p.cleanup();
});

async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An illustration task whose site never answers: it runs until it is stopped. */
async function hangingTask(p: Platform): Promise<string> {
  const project = okJson(await p.cli(['projects', 'create', 'Frozen', '--json']));
  const siteId = ok(await p.cli(['projects', 'add-site', project.id, `${site.url}/hang`])).stdout.trim();
  return okJson(
    await p.cli([
      'tasks',
      'create',
      '--kind',
      'illustration',
      '--prompt',
      'ice',
      '--project',
      project.id,
      '--site',
      siteId,
      '--json',
    ]),
  ).id;
}

const logsOf = async (p: Platform, id: string) => ok(await p.cli(['tasks', 'logs', id])).stdout;
const runsIn = (logs: string) => (logs.match(/fetching site/g) ?? []).length;

async function start(dataDir?: string, configDir?: string, args: string[] = []): Promise<Platform> {
  const p = await startPlatform({ dataDir, configDir, args });
  platforms.push(p);
  return p;
}

describe('a task that the server died running', () => {
  it('is failed on the third start after two kills -9 during it, with the reason in the status API and the CLI', async () => {
    let p = await start();
    const id = await hangingTask(p);
    for (let kill = 1; kill <= 2; kill++) {
      // Running (on this start's server) when the server dies.
      await until(
        () => logsOf(p, id),
        (l) => runsIn(l) === kill,
      );
      await p.kill();
      p = await start(p.dataDir, p.configDir);
    }
    const res = await p.fetch(`/tasks/${id}`, { headers: { authorization: `Bearer ${p.boot.access_token}` } });
    expect(res.status).toBe(200);
    const reason =
      'the server stopped 2 times while running this task; it is not run again (limit --job-max-crashes 2)';
    expect(await res.json()).toMatchObject({ id, status: 'failed', error: reason });
    expect(okJson(await p.cli(['tasks', 'get', id, '--json']))).toMatchObject({ status: 'failed', error: reason });
    const waited = await p.cli(['tasks', 'wait', id]);
    expect(waited.exitCode).toBe(6);
    expect(waited.stderr).toContain(reason);
    const logs = await logsOf(p, id);
    // Run twice (once per start that died), not a third time.
    expect(runsIn(logs)).toBe(2);
    expect(logs).toMatch(
      /queued to run again \(server stops during this task: 1; at 2 it fails\)[\s\S]*recovered: the server stopped 2 times/,
    );
    // The server is healthy and still runs new work.
    expect((await p.fetch('/healthz')).status).toBe(200);
  }, 120_000);
});

describe('the time budget of a task', () => {
  it('stops a run that takes longer and fails it with the reason (--job-time-budget image-task=2)', async () => {
    const p = await start(undefined, undefined, ['--job-time-budget', 'image-task=2']);
    const id = await hangingTask(p);
    const t0 = Date.now();
    const waited = await p.cli(['tasks', 'wait', id, '--interval', '0.2']);
    expect(waited.exitCode).toBe(6);
    expect(waited.stderr).toContain('the task ran longer than its time budget of 2 s and was stopped');
    // Stopped at its budget, well before any other limit would have ended it.
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(okJson(await p.cli(['tasks', 'get', id, '--json']))).toMatchObject({ status: 'failed', attempts: 1 });
  }, 60_000);
});

describe('the flags', () => {
  const serve = (args: string[]) =>
    execa('node', [BIN, 'serve', '--port', '0', '--data-dir', tempDir('flags'), '--log-level', 'warn', ...args], {
      reject: false,
      timeout: 30_000,
      env: { FACET_CONFIG_DIR: tempDir('flags-config') },
    });

  it('refuses values out of range and kinds that do not exist, naming the rule', async () => {
    for (const bad of [
      ['--job-max-crashes', '0'],
      ['--job-max-crashes', '101'],
      ['--job-time-budget', '0'],
      ['--job-time-budget', 'image-task=soon'],
    ]) {
      const r = await serve(bad);
      expect(r.exitCode, bad.join(' ')).toBe(2);
      expect(String(r.stderr)).toMatch(/expected/);
    }
    const unknown = await serve(['--job-time-budget', 'imgae-task=60']);
    expect(unknown.exitCode).toBe(2);
    expect(String(unknown.stderr)).toMatch(/unknown task kind\(s\) imgae-task; the kinds are .*image-task/);
  }, 90_000);
});
