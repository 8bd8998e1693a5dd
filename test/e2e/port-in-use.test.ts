import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/platform.js';

let blocker: net.Server;
let port: number;
beforeAll(async () => {
  blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  port = (blocker.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

describe('facet serve on a port in use', () => {
  // The lines a person at a terminal reads; in JSON mode (not a TTY) it is one fatal line, json-log-stderr.test.ts.
  it('fails with the port named and a --port hint, not a raw EADDRINUSE', async () => {
    const args = ['serve', '--port', String(port), '--data-dir', tempDir('data'), '--log-format', 'pretty'];
    const r = await runCli(tempDir('cfg'), args, {
      timeout: 30_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `error: cannot listen: port ${port} on 127.0.0.1 is in use (another server is listening there)`,
    );
    expect(r.stderr).toMatch(/hint: pick another with --port N .*--port 0 for any free port/);
    expect(r.stderr).not.toMatch(/EADDRINUSE/);
  });
});
