import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/** Issue 29: long output on a terminal goes through FACET_PAGER (else PAGER); never when piped. */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

/** A "pager" that keeps what it was given, so the test can read it. */
function recordingPager(): { command: string; file: string } {
  const file = path.join(tempDir('pager'), 'paged.txt');
  return { command: `cat > ${file}`, file };
}

describe('the pager', () => {
  it('takes output longer than the screen on a terminal; the screen does not get it twice', async () => {
    const pager = recordingPager();
    const run = runOnPty(['--json', 'slides', 'themes', '--size', '50'], {
      configDir: p.configDir,
      env: { FACET_PAGER: pager.command },
    });
    expect(await run.exited).toBe(0);
    const paged = readFileSync(pager.file, 'utf8');
    expect(JSON.parse(paged).items.length).toBeGreaterThan(10);
    expect(run.output()).not.toContain('"items"');
  });

  it('PAGER is used when FACET_PAGER is not set; FACET_PAGER=cat turns paging off', async () => {
    const pager = recordingPager();
    const viaPager = runOnPty(['--json', 'slides', 'themes', '--size', '50'], {
      configDir: p.configDir,
      env: { PAGER: pager.command },
    });
    expect(await viaPager.exited).toBe(0);
    expect(existsSync(pager.file)).toBe(true);
    const off = runOnPty(['--json', 'slides', 'themes', '--size', '50'], {
      configDir: p.configDir,
      env: { PAGER: pager.command + '.2', FACET_PAGER: 'cat' },
    });
    expect(await off.exited).toBe(0);
    expect(off.output()).toContain('"items"');
    expect(existsSync(pager.file + '.2')).toBe(false);
  });

  it('short output is written straight to the terminal', async () => {
    const pager = recordingPager();
    const run = runOnPty(['whoami'], { configDir: p.configDir, env: { FACET_PAGER: pager.command } });
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/admin/);
    expect(existsSync(pager.file)).toBe(false);
  });

  it('piped output never goes through the pager', async () => {
    const pager = recordingPager();
    const r = await p.cli(['--json', 'slides', 'themes', '--size', '50'], { env: { FACET_PAGER: pager.command } });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).items.length).toBeGreaterThan(10);
    expect(existsSync(pager.file)).toBe(false);
  });
});
