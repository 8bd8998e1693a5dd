import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * "The CLI loads only what the command it runs needs" (issue 9): checked on the built CLI by what a
 * command's process evaluated, not by timing. A preload records, when the process exits, the marks
 * libraries leave on globalThis once they run (zod's global config).
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
    `process.on('exit', () => require('node:fs').writeFileSync(process.env.FACET_TEST_MARKS, JSON.stringify({ zod: '__zod_globalConfig' in globalThis })));\n`,
  );
});
afterAll(() => p?.cleanup());

async function loaded(args: string[]): Promise<{ stdout: unknown; marks: { zod: boolean } }> {
  const r = await p.cli(args, { env: { NODE_OPTIONS: `--require ${probe}`, FACET_TEST_MARKS: marks, NO_COLOR: '1' } });
  return { stdout: okJson(r), marks: JSON.parse(readFileSync(marks, 'utf8')) };
}

describe('what a command loads', () => {
  it('keys list --json loads no zod: the keys client names its routes without their schemas', async () => {
    const r = await loaded(['keys', 'list', '--json']);
    expect(r.stdout).toEqual([expect.objectContaining({ name: 'bootstrap', status: 'active' })]);
    expect(r.marks.zod).toBe(false);
  });

  it('the probe sees zod where a command does load it (models list goes through its contract)', async () => {
    const r = await loaded(['models', 'list', '--json']);
    expect(Array.isArray(r.stdout)).toBe(true);
    expect(r.marks.zod).toBe(true);
  });
});
