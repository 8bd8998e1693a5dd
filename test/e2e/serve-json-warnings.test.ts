import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 39: in JSON log mode, everything on stdout and stderr is JSON. A Node process warning (the database's cache bus losing its
 * connection, a deprecation) is a JSON line of the log, naming the instance, not plain text among
 * the JSON lines. The warning is raised inside the server process by a preloaded module, on SIGUSR2.
 */
let p: Platform | undefined;
const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-warn-'));
afterAll(() => {
  p?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

it('sends process warnings through the JSON log', async () => {
  const preload = path.join(dir, 'warn-later.mjs');
  writeFileSync(
    preload,
    "process.on('SIGUSR2', () => process.emitWarning('the cache bus lost its connection (test)', { code: 'FACET_TEST' }));\n",
  );
  p = await startPlatform({
    args: ['--log-format', 'json', '--instance-id', 'warn-a'],
    env: { NODE_OPTIONS: `--import ${preload}` },
  });
  process.kill(p.pid, 'SIGUSR2');
  const deadline = Date.now() + 15_000;
  while (!p.serverOutput().includes('cache bus lost its connection')) {
    if (Date.now() > deadline) throw new Error(`no warning seen:\n${p.serverOutput()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const out = p.serverOutput();
  expect(out).not.toMatch(/\(node:\d+\)/);
  const line = out.split('\n').find((l) => l.includes('cache bus lost its connection'))!;
  const entry = JSON.parse(line) as Record<string, unknown>;
  expect(entry).toMatchObject({
    level: 40,
    instance: 'warn-a',
    warning: { name: 'Warning', code: 'FACET_TEST', message: 'the cache bus lost its connection (test)' },
  });

  // Everything the command writes in JSON mode, on stdout and stderr, from its start to its stop,
  // is a JSON line naming the instance: the listening line and report too.
  await p.stop();
  const lines = p.serverOutput().split('\n').filter(Boolean);
  const entries = lines.map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON line: ${l}`);
    }
  });
  for (const e of entries) expect(e.instance, JSON.stringify(e)).toBe('warn-a');
  expect(entries.find((e) => String(e.msg).startsWith('facet serve: listening on'))).toMatchObject({
    level: 30,
    url: p.url,
  });
  expect(entries.map((e) => e.msg)).toEqual(
    expect.arrayContaining(['facet serve: SIGTERM, finishing in-flight requests…', 'facet serve: stopped']),
  );
  expect(entries.find((e) => e.data_dir !== undefined)).toMatchObject({ data_dir: p.dataDir });
}, 60_000);
