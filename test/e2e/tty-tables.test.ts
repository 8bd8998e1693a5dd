import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ok, startPlatform, type Platform } from '../helpers/platform.js';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
  ok(await p.cli(['keys', 'create', '--name', 'a-rather-long-key-name-that-does-not-fit-a-narrow-terminal']));
});
afterAll(() => p?.cleanup());

/** `facet keys list` on a pseudo-terminal of the given width (util-linux script). */
async function onTerminal(cols: number, env: Record<string, string> = {}): Promise<string> {
  const r = await execa('script', ['-qfec', `stty cols ${cols} rows 40; node ${BIN} keys list`, '/dev/null'], {
    env: { FACET_CONFIG_DIR: p.configDir, CI: 'true', NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
    reject: false,
    timeout: 30_000,
  });
  expect(r.exitCode, r.stdout).toBe(0);
  return r.stdout.replace(/\r/g, '');
}

const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('tables on a terminal', () => {
  it('have no box lines, fit the width without wrapping, keep ids whole and show relative times', async () => {
    const out = await onTerminal(100);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(out).not.toMatch(/[│┌─┐└┘]/);
    for (const line of lines) expect(visible(line).length).toBeLessThanOrEqual(100);
    expect(visible(lines[0])).toMatch(/^ID\s+NAME\s+PREFIX/);
    expect(out).toMatch(/key_\w{16}/);
    expect(out, out).toMatch(/a-rather\S*…/);
    expect(out).not.toContain('a-rather-long-key-name-that-does-not-fit-a-narrow-terminal');
    expect(out).toMatch(/just now|minutes? ago/);
    expect(out).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('colour statuses unless NO_COLOR', async () => {
    expect(await onTerminal(200)).toContain('\x1b[32mactive\x1b[39m');
    expect(await onTerminal(200, { NO_COLOR: '1' })).not.toMatch(/\x1b\[/);
  });
});
