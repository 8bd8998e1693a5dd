import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * "The CLI loads only what the command it runs needs" (issue 9): checked on the built CLI by what a
 * command's process evaluated, not by timing. A preload records, when the process exits, the mark
 * zod leaves on globalThis once it runs, and which of Node's own modules were loaded
 * (process.moduleLoadList): node:crypto, node:tty, node:child_process, and the scanner Node runs on
 * a CommonJS package imported from an ES module (commander's, before it was bundled).
 */
let p: Platform;
let probe: string;
let marks: string;
beforeAll(async () => {
  p = await startPlatform();
  const dir = tempDir('lazy');
  probe = path.join(dir, 'probe.cjs');
  marks = path.join(dir, 'marks.json');
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(process.env.FACET_TEST_MARKS, JSON.stringify({ zod: '__zod_globalConfig' in globalThis, builtins: process.moduleLoadList })));\n`,
  );
});
afterAll(() => p?.cleanup());

async function run(args: string[]): Promise<{ stdout: string; marks: { zod: boolean; builtins: string[] } }> {
  const r = ok(
    await p.cli(args, { env: { NODE_OPTIONS: `--require ${probe}`, FACET_TEST_MARKS: marks, NO_COLOR: '1' } }),
  );
  return { stdout: r.stdout, marks: JSON.parse(readFileSync(marks, 'utf8')) };
}

async function loaded(args: string[]): Promise<{ stdout: unknown; marks: { zod: boolean; builtins: string[] } }> {
  const r = await run(args);
  return { stdout: JSON.parse(r.stdout), marks: r.marks };
}

describe('what a command loads', () => {
  it('keys list --json loads no zod: the keys client names its routes without their schemas', async () => {
    const r = await loaded(['keys', 'list', '--json']);
    expect(r.stdout).toEqual([expect.objectContaining({ name: 'bootstrap', status: 'active' })]);
    expect(r.marks.zod).toBe(false);
  });

  it('status --json and whoami --json load no zod either (keys and system clients by reference)', async () => {
    for (const args of [
      ['status', '--json'],
      ['whoami', '--json'],
    ]) {
      const r = await p.cli(args, {
        env: { NODE_OPTIONS: `--require ${probe}`, FACET_TEST_MARKS: marks, FACET_CHROMIUM: process.execPath },
      });
      // status exits non-zero when a check fails (fonts on a bare machine): what it loaded is the point here
      expect(r.stdout, r.stderr).toMatch(/^\{/);
      expect(JSON.parse(readFileSync(marks, 'utf8')).zod, args.join(' ')).toBe(false);
    }
  });

  it('keys list --json (stdio piped) loads no crypto, no tty, no child_process and no CommonJS package', async () => {
    const r = await loaded(['keys', 'list', '--json']);
    expect(r.stdout).toEqual([expect.objectContaining({ name: 'bootstrap' })]);
    // crypto only names a config file's temporary copy when writing; chalk's colour detection
    // (node:tty) is never used; commander is bundled, not loaded through the CommonJS loader, and
    // its child_process (executable subcommands, which facet has none of) waits for first use;
    // `import process from 'node:process'` is the global, not a facade that reads every getter of
    // process (process.report among them).
    const unwanted = [
      'NativeModule crypto',
      'NativeModule tty',
      'NativeModule internal/deps/cjs-module-lexer/lexer',
      'NativeModule child_process',
      'NativeModule internal/process/report',
    ];
    expect(r.marks.builtins.filter((m) => unwanted.includes(m))).toEqual([]);
    // the probe does see what a command loads: the HTTP client
    expect(r.marks.builtins).toContain('NativeModule http');
  });

  it('config writes still work without crypto loaded up front (a temporary copy renamed over the file)', async () => {
    const r = await p.cli(['config', 'set', 'default_livedoc', 'ld_probe']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(okJson(await p.cli(['config', 'get', 'default_livedoc', '--json']))).toMatchObject({ value: 'ld_probe' });
  });

  it('--version is answered by the CommonJS launcher: no ES module loader, no CLI', async () => {
    const r = await run(['--version']);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(r.marks.builtins).not.toContain('NativeModule internal/modules/esm/resolve');
    expect(r.marks.zod).toBe(false);
  });

  it('the probe sees zod where a command does load it (models list goes through its contract)', async () => {
    const r = await loaded(['models', 'list', '--json']);
    expect(Array.isArray(r.stdout)).toBe(true);
    expect(r.marks.zod).toBe(true);
  });
});
