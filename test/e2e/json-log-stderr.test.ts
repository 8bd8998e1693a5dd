import { chmodSync, mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/platform.js';

/**
 * Issue 47: with --log-format json, every line `facet serve` writes on stderr is JSON, from the
 * first start of a data dir other users could read (the line saying it was made private) to a
 * crash (an uncaught exception, an unhandled rejection), whose stack rides in the fatal line.
 * The built server runs as a process; the crash is thrown into it by a preloaded module.
 */
async function crashRun(crash: string) {
  const dataDir = path.join(tempDir('jsonlog'), 'data');
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o755); // readable by others: the first start makes it private, and says so
  const r = await execa(
    'node',
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(crash)}`,
      BIN,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--log-format',
      'json',
      '--no-profile',
    ],
    { env: { FACET_CONFIG_DIR: tempDir('jsonlog-config'), CI: 'true' }, reject: false, timeout: 90_000 },
  );
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  return { r, lines, parsed: lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

// The crash comes once the server is up: after it wrote its start-up report.
const after = (body: string) =>
  `const w = process.stderr.write.bind(process.stderr); let armed = false; process.stderr.write = (c, ...a) => { if (!armed && String(c).includes('credentials:')) { armed = true; setTimeout(() => { ${body} }, 200); } return w(c, ...a); };`;

describe('--log-format json: stderr is JSON, first start and crash included', () => {
  it('an uncaught exception: every line parses, the last is fatal with the stack; exit 1', async () => {
    const { r, lines, parsed } = await crashRun(after("throw new Error('boom: a bug nothing caught');"));
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(parsed.some((l) => /was readable by other users; made \d+ files and folders private/.test(l.msg))).toBe(
      true,
    );
    expect(parsed.some((l) => /listening on http:/.test(l.msg))).toBe(true);
    const last = parsed.at(-1)!;
    expect(last).toMatchObject({ level: 60, msg: expect.stringMatching(/crashed .*boom: a bug nothing caught/) });
    expect(last.err.stack).toMatch(/^Error: boom: a bug nothing caught\n\s+at /);
    expect(r.exitCode).toBe(1);
  }, 120_000);

  it('an unhandled rejection likewise', async () => {
    const { r, lines, parsed } = await crashRun(after("Promise.reject(new Error('boom: nobody waited'));"));
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(parsed.at(-1)).toMatchObject({ level: 60, msg: expect.stringMatching(/unhandledRejection.*nobody waited/) });
    expect(r.exitCode).toBe(1);
  }, 120_000);

  it('a start that fails (its port in use) is one fatal JSON line with the hint, and nothing in plain text', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const r = await execa(
        'node',
        [BIN, 'serve', '--port', String(port), '--memory', '--log-format', 'json', '--no-profile'],
        { env: { FACET_CONFIG_DIR: tempDir('jsonlog-config'), CI: 'true' }, reject: false, timeout: 60_000 },
      );
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({
        level: 60,
        msg: expect.stringMatching(new RegExp(`could not start: .*port ${port}.* is in use`)),
        hint: expect.stringMatching(/--port/),
      });
      expect(r.exitCode).toBe(1);
    } finally {
      holder.close();
    }
  }, 90_000);
});
