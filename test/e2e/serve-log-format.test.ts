import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

let p: Platform | undefined;
afterEach(() => {
  p?.cleanup();
  p = undefined;
});

const READABLE = /^\d\d:\d\d:\d\d INFO {2}GET \/healthz → 200 \d+ ms req_\w+$/m;

describe('facet serve log lines', () => {
  it('are JSON lines when stdout is not a terminal', async () => {
    p = await startPlatform({ args: ['--log-level', 'info'] });
    await p.fetch('/healthz');
    await expect.poll(() => p!.serverOutput(), { timeout: 5000 }).toMatch(/"msg":"request completed"/);
    expect(p.serverOutput()).not.toMatch(READABLE);
  });

  it('--log-format pretty gives one readable line per request', async () => {
    p = await startPlatform({ args: ['--log-level', 'info', '--log-format', 'pretty'] });
    await p.fetch('/healthz');
    await expect.poll(() => p!.serverOutput(), { timeout: 5000 }).toMatch(READABLE);
    expect(p.serverOutput()).not.toMatch(/"msg":"incoming request"/);
  });

  it('are readable by default on a terminal (a pseudo-terminal through script)', async () => {
    const dataDir = tempDir('data');
    const command = `node ${BIN} serve --port 0 --data-dir ${dataDir} --log-level info --no-profile`;
    const proc = execa('script', ['-qfec', command, '/dev/null'], {
      env: { FACET_CONFIG_DIR: tempDir('cfg'), NO_COLOR: '1' },
      reject: false,
    });
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await expect.poll(() => /listening on (http:\/\/[^\s"]+)/.exec(out)?.[1], { timeout: 20_000 }).toBeTruthy();
      const url = /listening on (http:\/\/[^\s"]+)/.exec(out)![1].replace(/\r$/, '');
      await fetch(`${url}/healthz`);
      await expect.poll(() => out.replace(/\r/g, ''), { timeout: 5000 }).toMatch(READABLE);
    } finally {
      proc.kill('SIGTERM');
      await proc;
    }
  });
});
