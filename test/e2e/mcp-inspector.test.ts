import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, startPlatform, type Platform } from '../helpers/platform.js';
import { servePages, type PageServer } from '../helpers/pages.js';

/**
 * Issue 40: the MCP Inspector's CLI mode (`mcp-inspector --cli`, @modelcontextprotocol/inspector)
 * starts `facet mcp` as a client configuration would, lists its tools and calls web_extract on a
 * page served here (the platform allows 127.0.0.1 fetches, as the e2e helper starts it).
 * Issue 47: the same Inspector (0.16.8, the last that runs on Node 20 and sends a header) over
 * HTTP to /mcp with the key as a bearer token, as README shows it.
 */
let p: Platform;
let pages: PageServer;
beforeAll(async () => {
  pages = await servePages({
    '/guide': {
      body: '<html><head><title>Brewing guide</title></head><body><nav>Menu</nav><main><h1>Brewing</h1><p>Steep green tea for two minutes at 80 degrees Celsius.</p></main></body></html>',
    },
  });
  p = await startPlatform();
}, 60_000);
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
});

const INSPECTOR = path.join(ROOT, 'node_modules/.bin/mcp-inspector');
const inspect = (args: string[]) =>
  execa(INSPECTOR, ['--cli', 'node', BIN, 'mcp', ...args], {
    env: { FACET_CONFIG_DIR: p.configDir, FACET_API_KEY: p.boot.api_key, FACET_BASE_URL: p.url, CI: 'true' },
    extendEnv: true,
    reject: false,
    timeout: 60_000,
  });

describe('the MCP Inspector CLI against /mcp over HTTP', () => {
  const overHttp = (key: string, args: string[]) =>
    execa(
      INSPECTOR,
      ['--cli', `${p.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${key}`, ...args],
      { env: { CI: 'true' }, extendEnv: true, reject: false, timeout: 60_000 },
    );

  it('lists the tools and calls one with the key as a bearer header; a wrong key says why', async () => {
    const listed = await overHttp(p.boot.api_key, ['--method', 'tools/list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools).toHaveLength(19);
    const called = await overHttp(p.boot.api_key, ['--method', 'tools/call', '--tool-name', 'models_list']);
    expect(called.exitCode, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).structuredContent).toBeDefined();
    const refused = await overHttp('fk_not_a_key', ['--method', 'tools/list']);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr + refused.stdout).toMatch(/INVALID_API_KEY \(HTTP 401\)/);
  }, 90_000);
});

describe('the MCP Inspector CLI against facet mcp', () => {
  it('lists the tools and calls web_extract', async () => {
    const listed = await inspect(['--method', 'tools/list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const names = JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toHaveLength(19);
    expect(names).toContain('web_extract');

    const called = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'web_extract',
      '--tool-arg',
      `url=${pages.url}/guide`,
      'format=text',
    ]);
    expect(called.exitCode, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ title: 'Brewing guide', format: 'text' });
    expect(result.structuredContent.content).toMatch(/Steep green tea for two minutes at 80 degrees Celsius\./);
    expect(result.structuredContent.content).not.toMatch(/Menu/);
  }, 90_000);
});
