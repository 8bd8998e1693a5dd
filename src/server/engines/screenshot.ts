import { access, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import type { FetchPolicy } from '../net/policy.js';
import type { Page } from 'playwright-core';
import { REFUSED_HEADER } from '../net/policy-proxy.js';
import { withPolicedBrowser } from './policed-browser.js';
import { guardNavigations, settle, SETTLE_MS } from './navigation-guard.js';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export class BrowserMissingError extends Error {
  constructor(executable: string) {
    super(
      `no Chromium at ${executable}: install one (Debian/Ubuntu: sudo apt-get install chromium) ` +
        'or point facet serve at it with --chromium PATH or FACET_CHROMIUM',
    );
    this.name = 'BrowserMissingError';
  }
}

export interface ScreenshotRequest {
  url: string;
  width: number;
  height: number;
  fullPage: boolean;
  executablePath: string;
  outDir: string;
  /** The outbound fetch policy the page and every request it makes are held to. */
  policy: FetchPolicy;
  signal?: AbortSignal;
  log?: (line: string) => Promise<void> | void;
  timeoutMs?: number;
}

export interface ScreenshotResult {
  file: string;
  url: string;
  final_url: string;
  title: string;
  http_status: number | null;
  width: number;
  height: number;
  full_page: boolean;
}

export async function chromiumAvailable(executable: string): Promise<boolean> {
  try {
    await access(executable, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Drives Chromium through playwright-core (which never downloads a browser): one fresh browser per
 * capture, so tasks do not share cookies or state. Abort closes the browser, which ends any wait.
 * The browser reaches the network only through a policy proxy of its own (net/policy-proxy.ts):
 * a refused page, a redirect of it to a refused address, or a navigation the page starts itself to
 * one, fails the capture with the policy's message; refused subrequests are blocked and logged.
 * After `load` the page gets a bounded settle (network idle) before the capture. Service workers
 * are blocked.
 */
export async function takeScreenshot(req: ScreenshotRequest): Promise<ScreenshotResult> {
  if (!(await chromiumAvailable(req.executablePath))) throw new BrowserMissingError(req.executablePath);
  // Refuse a forbidden page before starting a browser; the proxy checks it again (and every hop).
  await req.policy.check(req.url);
  req.signal?.throwIfAborted();
  await req.log?.(`launching ${req.executablePath}`);
  return withPolicedBrowser(req, async (browser, proxy) => {
    const context = await browser.newContext({
      viewport: { width: req.width, height: req.height },
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    // Every navigation of the main frame — redirect hops and the page's own — is held to the proxy's refusals.
    const guard = guardNavigations(page, proxy);
    const failed = (f: { message: string }) => new Error(f.message);
    const orFailure = (err: Error) => {
      const f = guard.failure();
      return f ? failed(f) : err;
    };
    const timeoutMs = req.timeoutMs ?? 30_000;
    const started = Date.now();
    await req.log?.(`loading ${req.url} at ${req.width}x${req.height}`);
    const response = await page.goto(req.url, { waitUntil: 'load', timeout: timeoutMs }).catch((err: Error) => {
      throw orFailure(err);
    });
    req.signal?.throwIfAborted();
    const refusedHere = response?.headers()[REFUSED_HEADER];
    if (refusedHere) throw new Error(guard.failure()?.message ?? refusedHere);
    await settle(page, Math.min(SETTLE_MS, timeoutMs - (Date.now() - started)));
    req.signal?.throwIfAborted();
    guard.check(failed);
    // A navigation the page set off may tear the document down mid-capture.
    const captured = await capture(page, req.fullPage).catch((err: Error) => {
      throw orFailure(err);
    });
    // Checked after the capture too: what was captured may be the proxy's refusal page, or cut short.
    guard.check(failed);
    const { title, png } = captured;
    if (proxy.refusals.length > 0) {
      await req.log?.(`blocked ${proxy.refusals.length} request(s) of the page: ${proxy.refusals[0].message}`);
    }
    await req.log?.(`loaded: HTTP ${response?.status() ?? '-'}, title "${title}"`);
    req.signal?.throwIfAborted();
    const file = 'screenshot.png';
    await writeFile(path.join(req.outDir, file), png);
    const size = pngSize(png);
    await req.log?.(
      `captured ${file} (${size.width}x${size.height}${req.fullPage ? ', full page' : ''}, ${png.length} bytes)`,
    );
    return {
      file,
      url: req.url,
      final_url: page.url(),
      title,
      http_status: response?.status() ?? null,
      width: size.width,
      height: size.height,
      full_page: req.fullPage,
    };
  });
}

async function capture(page: Page, fullPage: boolean): Promise<{ title: string; png: Buffer }> {
  const title = await page.title();
  const png = await page.screenshot({ fullPage, type: 'png' });
  return { title, png };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
