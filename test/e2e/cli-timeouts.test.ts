import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/platform.js';

// A server that takes every request and never answers: the platform is "reachable but slow".
const silent = http.createServer(() => {});
let silentUrl = '';
let closedUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  // A port nobody listens on: taken and released, so the connection is refused.
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise<void>((r) => silent.close(() => r()));
});

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(tempDir('cfg'), args, {
    env: { FACET_API_KEY: 'sk-test', FACET_ACCESS_TOKEN: 'tok-test', ...env },
    timeout: 60_000,
  });

describe('client timeouts are told apart from an unreachable platform', () => {
  it('a request with no answer names the operation and the limit, without "is the platform running?"', async () => {
    const r = await cli(['--base-url', silentUrl, 'keys', 'list'], { FACET_TIMEOUT_MS: '1000' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: keys list did not answer within 1 s');
    expect(r.stderr).toContain('FACET_TIMEOUT_MS');
    expect(r.stderr).not.toMatch(/cannot reach|is the platform running/);
  }, 30_000);

  it("web extract waits the server's own limit plus a margin, and says both", async () => {
    const started = Date.now();
    const r = await cli(['--base-url', silentUrl, 'extract', 'https://example.com/', '--timeout', '1000'], {
      FACET_TIMEOUT_MS: '1000',
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: web extract did not answer within 16 s (the server gives up after 1 s)');
    // Not the transport's 1 s: the server's 1 s plus the margin.
    expect(Date.now() - started).toBeGreaterThanOrEqual(15_000);
  }, 45_000);

  it('a refused connection still says the platform cannot be reached', async () => {
    const r = await cli(['--base-url', closedUrl, 'keys', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/error: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
    expect(r.stderr).toContain('is the platform running?');
    expect(r.stderr).not.toContain('did not answer');
  }, 30_000);
});
