import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/**
 * `facet serve` on a terminal, with colours: its readable log lines reach the terminal as a person
 * sees them, the CLI's own colours as real escapes and never the internal marks that stand for them
 * until the output has been escaped (those printed as `␹…￻[2m` garbage before every line).
 */
describe('facet serve on a terminal', () => {
  it('prints readable, coloured log lines and stops on Ctrl-C', async () => {
    const dir = tempDir('serve-tty');
    const run = runOnPty(
      ['serve', '--port', '0', '--data-dir', path.join(dir, 'data'), '--log-level', 'info', '--no-profile'],
      { configDir: path.join(dir, 'config'), env: { NO_COLOR: '' }, timeout: 40_000 },
    );
    await run.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output())![1];
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await run.waitFor(/GET \/healthz → 200/);
    const out = run.output();
    expect(out).not.toMatch(/[\ufff9\ufffb]/);
    // The time at the start of a log line is dimmed with a real escape sequence.
    expect(out).toMatch(/\u001b\[2m\d\d:\d\d:\d\d\u001b\[22m/);
    run.type('\x03');
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/facet serve: stopped/);
  }, 60_000);
});
