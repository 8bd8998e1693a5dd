import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_CHROMIUM } from '../../../src/server/engines/screenshot.js';
import { localLandingPage, SOLAR_QUERY, solarPassages } from '../../helpers/landing-docs.js';

/**
 * The page in a real browser with the network off: it asks for nothing, and nothing is wider than
 * the screen at desktop or phone width. FACET_GALLERY=1 keeps the screenshots in docs/gallery/.
 */
const executablePath = process.env.FACET_CHROMIUM ?? DEFAULT_CHROMIUM;
const gallery = process.env.FACET_GALLERY === '1';

describe.skipIf(!existsSync(executablePath))('landing page in Chromium', () => {
  let browser: Browser;
  let html: string;
  let dir: string;
  beforeAll(async () => {
    ({ html } = await localLandingPage(SOLAR_QUERY, solarPassages(), new Date('2026-11-22T12:00:00Z')));
    dir = gallery ? path.resolve('docs/gallery') : await mkdtemp(path.join(os.tmpdir(), 'facet-page-'));
    await mkdir(dir, { recursive: true });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (!gallery && dir) await rm(dir, { recursive: true, force: true });
  });

  for (const [name, width, height, scale] of [
    ['landing-page.png', 1280, 800, 1],
    ['landing-page-phone.png', 390, 844, 2],
  ] as const) {
    it(`renders at ${width} px with the network off, loading nothing and overflowing nothing (${name})`, async () => {
      const context = await browser.newContext({
        viewport: { width, height },
        deviceScaleFactor: scale,
        offline: true,
      });
      try {
        const page = await context.newPage();
        const asked: string[] = [];
        await page.route('**/*', (r) => {
          asked.push(r.request().url());
          return r.abort();
        });
        await page.setContent(html, { waitUntil: 'load' });
        const box = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          height: document.documentElement.scrollHeight,
        }));
        expect(asked).toEqual([]);
        expect(box.scrollWidth).toBeLessThanOrEqual(box.innerWidth);
        expect(box.height).toBeGreaterThan(height);
        const png = await page.screenshot({ path: path.join(dir, name), fullPage: true });
        expect(png.subarray(1, 4).toString()).toBe('PNG');
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});
