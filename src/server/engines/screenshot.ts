import { access, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Flags that let Debian's Chromium run headless in containers and CI, offline. */
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

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
 */
export async function takeScreenshot(req: ScreenshotRequest): Promise<ScreenshotResult> {
  if (!(await chromiumAvailable(req.executablePath))) throw new BrowserMissingError(req.executablePath);
  req.signal?.throwIfAborted();
  const { chromium } = await import('playwright-core');
  await req.log?.(`launching ${req.executablePath}`);
  const browser = await chromium.launch({ executablePath: req.executablePath, args: LAUNCH_ARGS, headless: true, timeout: 30_000 });
  const onAbort = () => void browser.close().catch(() => {});
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const page = await browser.newPage({ viewport: { width: req.width, height: req.height } });
    await req.log?.(`loading ${req.url} at ${req.width}x${req.height}`);
    const response = await page.goto(req.url, { waitUntil: 'load', timeout: req.timeoutMs ?? 30_000 });
    req.signal?.throwIfAborted();
    const title = await page.title();
    await req.log?.(`loaded: HTTP ${response?.status() ?? '-'}, title "${title}"`);
    const png = await page.screenshot({ fullPage: req.fullPage, type: 'png' });
    req.signal?.throwIfAborted();
    const file = 'screenshot.png';
    await writeFile(path.join(req.outDir, file), png);
    const size = pngSize(png);
    await req.log?.(`captured ${file} (${size.width}x${size.height}${req.fullPage ? ', full page' : ''}, ${png.length} bytes)`);
    return { file, url: req.url, final_url: page.url(), title, http_status: response?.status() ?? null, width: size.width, height: size.height, full_page: req.fullPage };
  } catch (err) {
    if (req.signal?.aborted) throw req.signal.reason ?? err;
    throw err;
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
    await browser.close().catch(() => {});
  }
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
