import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/**
 * Ctrl-C typed on a real (pseudo-)terminal while the CLI waits: on a task's spinner and on a
 * streamed answer. It must stop the waiting at once with exit 130 and say how to pick up again;
 * the task itself goes on running on the server.
 */

let p: Platform;
let site: { url: string; close(): void };
let project: string;
let siteId: string;

/** A page that never answers while the test runs: a task that fetches it stays running. */
function startHeldSite(): Promise<{ url: string; close(): void }> {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => void held.push(res));
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => {
          for (const r of held.splice(0)) r.destroy();
          server.closeAllConnections();
          server.close();
        },
      });
    });
  });
}

beforeAll(async () => {
  site = await startHeldSite();
  p = await startPlatform({ args: ['--answer-chunk-delay', '200', '--workers', '4'] });
  project = okJson(await p.cli(['projects', 'create', 'Held', '--json'])).id;
  siteId = ok(await p.cli(['projects', 'add-site', project, `${site.url}/held`])).stdout.trim();
});
afterAll(() => {
  p?.cleanup();
  site?.close();
});

const heldTask = async () =>
  okJson(
    await p.cli([
      'tasks',
      'create',
      '--kind',
      'illustration',
      '--prompt',
      'held',
      '--project',
      project,
      '--site',
      siteId,
      '--json',
    ]),
  ).id as string;
const statusOf = async (id: string) => okJson(await p.cli(['tasks', 'get', id, '--json'])).status as string;

/** Waits for the spinner, types Ctrl-C, and checks the interrupt: exit 130, the hint, the task still on. */
async function interruptSpinner(args: string[], idOf: (output: string) => string): Promise<void> {
  const run = runOnPty(args, { configDir: p.configDir, timeout: 40_000 });
  // The spinner redraws its line with the status and elapsed time: it is running.
  await run.waitFor(/task_\w+: (queued|running) \d+\.\d+s/);
  run.type('\x03');
  const code = await run.exited;
  const out = run.output();
  expect(code, run.tail()).toBe(130);
  const id = idOf(out);
  expect(out).toMatch(new RegExp(`task ${id} keeps running on the server`));
  expect(out).toMatch(new RegExp(`hint: follow it again with: facet tasks wait ${id}`));
  expect(['queued', 'running']).toContain(await statusOf(id));
}

describe('Ctrl-C on a terminal', () => {
  it('stops `tasks create --wait` at once: exit 130, the task runs on, a hint to follow it', async () => {
    await interruptSpinner(
      [
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'held',
        '--project',
        project,
        '--site',
        siteId,
        '--wait',
        '--interval',
        '0.2',
      ],
      (out) => /task_\w+/.exec(out)![0],
    );
  });

  it('stops `tasks wait`', async () => {
    const id = await heldTask();
    await interruptSpinner(['tasks', 'wait', id, '--interval', '0.2'], () => id);
  });

  it('stops `tasks retry --wait`', async () => {
    const id = await heldTask();
    ok(await p.cli(['tasks', 'cancel', id]));
    await interruptSpinner(['tasks', 'retry', id, '--wait', '--interval', '0.2'], () => id);
  });

  it('stops `ask` while the answer streams, with the command that resumes it', async () => {
    const ld = okJson(await p.cli(['livedocs', 'create', 'Atlas', '--json'])).short_id;
    ok(
      await p.cli([
        'livedocs',
        'resources',
        'add-doc',
        ld,
        '--title',
        'Freedonia',
        '--content',
        'Freedonia is a small republic on the coast. The capital of Freedonia is Fredville, a river port founded in 1822. The population of Freedonia is 2 million people.',
      ]),
    );
    const run = runOnPty(['ask', 'Describe Freedonia, its capital and population', '--livedoc', ld], {
      configDir: p.configDir,
      timeout: 40_000,
    });
    await run.waitFor(/According to your sources/);
    run.type('\x03');
    const code = await run.exited;
    expect(code, run.tail()).toBe(130);
    const hint = /resume with: facet conversations stream (stk_\w+) --offset (\d+)/.exec(run.output());
    expect(hint, run.tail()).not.toBeNull();
    // the hint works: resuming there prints the rest of the answer
    const rest = ok(await p.cli(['conversations', 'stream', hint![1], '--offset', hint![2]])).stdout;
    expect(rest).toMatch(/2 million/);
  });
});
