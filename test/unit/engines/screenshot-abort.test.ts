import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM, takeScreenshot } from '../../../src/server/engines/screenshot.js';
import { FetchPolicy } from '../../../src/server/net/policy.js';

const executablePath = process.env.FACET_CHROMIUM ?? DEFAULT_CHROMIUM;

/**
 * A task canceled while its browser was still starting: the abort came before the browser's abort
 * listener existed, so the work went on and waited out the page's own timeout (a screenshot of a
 * page that never answers stayed "cancel requested" for 30 s). Now it stops once the browser is up,
 * before the page is asked for. Told by the page's requests, not by a clock.
 */
describe.skipIf(!existsSync(executablePath))('a screenshot aborted while the browser starts', () => {
  const requests: string[] = [];
  const page = http.createServer((req) => requests.push(req.url ?? '')); // never answers
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-shot-abort-'));
  afterAll(async () => {
    page.closeAllConnections();
    await new Promise((r) => page.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends with the abort and never asks for the page', async () => {
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    const controller = new AbortController();
    const reason = new Error('canceled');
    const shot = takeScreenshot({
      url,
      width: 320,
      height: 200,
      fullPage: false,
      executablePath,
      outDir: dir,
      policy: new FetchPolicy(['127.0.0.1']),
      signal: controller.signal,
      // The abort lands while the browser is launching, as a cancel of a task still starting does.
      log: (line) => {
        if (line.startsWith('launching')) setImmediate(() => controller.abort(reason));
      },
    });
    await expect(shot).rejects.toBe(reason);
    expect(requests).toEqual([]);
  });
});
