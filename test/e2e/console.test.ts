import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { DEFAULT_CHROMIUM } from '../../src/server/engines/screenshot.js';
import { sofficePath } from '../../src/server/engines/slides/preview.js';
import { viewerOnceDrawn } from '../helpers/deck-previews.js';

/**
 * The console in a real browser (Debian's Chromium through playwright-core): sign in, act on keys,
 * read usage charts, tasks and decks, at desktop and phone width, never leaving the origin.
 * FACET_CONSOLE_SHOTS=DIR keeps the screenshots there (to look at them).
 */
const executablePath = process.env.FACET_CHROMIUM ?? DEFAULT_CHROMIUM;
const shots = process.env.FACET_CONSOLE_SHOTS ?? tempDir('console-shots');

let p: Platform;
let browser: Browser;
let victim: { id: string; key: string; name: string };
let taskId: string;
let hasDeck = false;
/** Every URL the console's pages asked for, by any context watching. */
const asked: string[] = [];

const chat = (key: string, content: string) =>
  p.fetch('/api/v1/chat/completions', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'facet-echo', messages: [{ role: 'user', content }] }),
  });

async function watched(width: number, height: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  context.on('request', (r) => asked.push(r.url()));
  return { context, page: await context.newPage() };
}

async function signIn(page: Page, secret: string): Promise<void> {
  await page.goto(`${p.url}/console`);
  expect(new URL(page.url()).pathname).toBe('/console/login');
  await page.getByLabel('API key or admin key').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${p.url}/console/keys`);
}

/** A full-page screenshot; at any width nothing may be wider than the window. */
async function shoot(page: Page, name: string): Promise<void> {
  const box = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(box.scroll, `${name} is wider than the window`).toBeLessThanOrEqual(box.inner);
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** Images on the page that loaded (a broken one has naturalWidth 0). */
const loadedImages = (page: Page, selector: string) =>
  page.$$eval(selector, (imgs) =>
    Promise.all(
      (imgs as HTMLImageElement[]).map((i) =>
        i.complete ? i.naturalWidth : new Promise<number>((r) => (i.onload = () => r(i.naturalWidth))),
      ),
    ),
  );

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  p = await startPlatform({ args: ['--trust-proxy', '127.0.0.1'] });
  const made = okJson(await p.cli(['keys', 'create', '--name', 'victim', '--json']));
  victim = { id: made.id, key: made.key, name: 'victim' };
  for (const [key, text] of [
    [p.boot.api_key, 'hello there'],
    [victim.key, 'a longer message for the victim key'],
    [victim.key, 'and one more'],
  ]) {
    expect((await chat(key, text)).status).toBe(200);
  }
  taskId = okJson(
    await p.cli(
      [
        'tasks',
        'create',
        '--kind',
        'illustration',
        '--prompt',
        'A lighthouse over a night ocean',
        '--size',
        '320x180',
        '--count',
        '2',
        '--wait',
        '--json',
      ],
      { timeout: 120_000 },
    ),
  ).id;
  const ld = okJson(await p.cli(['livedocs', 'create', 'Energy notes', '--json'])).short_id;
  ok(
    await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      ld,
      '--title',
      'Solar',
      '--content',
      '# Solar power in Spain\n\nSpain installed more solar capacity than any other European country in 2023. Cheap land and strong sunshine keep costs low.\n\nGrid operators curtail solar output on sunny spring afternoons.',
      '--json',
    ]),
  );
  ok(await p.cli(['mindmap', 'solar power in Spain', '--livedoc', ld, '--json']));
  ok(
    await p.cli(
      ['pages', 'create', 'How is solar power changing Spain?', '--livedoc', ld, '--wait', '--interval', '2', '--json'],
      { timeout: 120_000 },
    ),
  );
  if (sofficePath()) {
    const deck = okJson(
      await p.cli(
        [
          'slides',
          'create',
          'How is solar power changing Spain?',
          '--livedoc',
          ld,
          '--slides',
          '2',
          '--wait',
          '--interval',
          '2',
          '--json',
        ],
        { timeout: 240_000 },
      ),
    );
    expect(deck.task_status).toBe('COMPLETED');
    // Its previews are drawn by a job after the task: the decks page shows them once drawn.
    await viewerOnceDrawn(deck.ppt_url);
    hasDeck = true;
  }
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
}, 400_000);

afterAll(async () => {
  await browser?.close();
  p?.cleanup();
});

describe.skipIf(!existsSync(executablePath))('the console in Chromium', () => {
  for (const [label, width, height] of [
    ['desktop', 1280, 800],
    ['phone', 390, 844],
  ] as const) {
    it(`signs in with the API key and shows every page at ${width} px (${label})`, async () => {
      const { context, page } = await watched(width, height);
      try {
        await page.goto(`${p.url}/console/login`);
        await shoot(page, `${label}-login`);
        // Keyboard first: the first Tab lands on the skip link, which is then drawn with its focus ring.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
        expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
        await signIn(page, p.boot.api_key);
        expect(await page.locator('h1').innerText()).toBe('API keys');
        expect(await page.locator('table').innerText()).toContain('victim');
        await shoot(page, `${label}-keys`);
        for (const [slug, name] of [
          ['usage', 'usage'],
          ['tasks', 'tasks'],
          [`tasks/${taskId}`, 'task'],
          ['livedocs', 'livedocs'],
          ['decks', 'decks'],
          ['pages', 'pages'],
        ]) {
          await page.goto(`${p.url}/console/${slug}`);
          expect(page.url()).toBe(`${p.url}/console/${slug}`);
          await shoot(page, `${label}-${name}`);
        }
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  it('freezes a key through the confirmation step, and the API refuses that key from then on', async () => {
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, p.boot.api_key);
      await page.getByRole('link', { name: `Freeze key victim` }).click();
      expect(new URL(page.url()).pathname).toBe(`/console/keys/${victim.id}/freeze`);
      expect(await page.locator('h1').innerText()).toBe('Freeze key victim?');
      // Nothing has changed yet: the confirmation page only asks.
      expect((await chat(victim.key, 'still fine')).status).toBe(200);
      await shoot(page, 'desktop-confirm');
      await page.getByRole('button', { name: 'Freeze this key' }).click();
      await page.waitForURL(/\/console\/keys\?done=frozen/);
      expect(await page.getByRole('status').innerText()).toContain('frozen');
      const res = await chat(victim.key, 'refused now');
      expect(res.status).toBe(403);
      expect(JSON.stringify(await res.json())).toContain('KEY_FROZEN');
      // And back: unfreeze through the same two steps.
      await page.getByRole('link', { name: 'Unfreeze key victim' }).click();
      await page.getByRole('button', { name: 'Unfreeze this key' }).click();
      await page.waitForURL(/done=unfrozen/);
      expect((await chat(victim.key, 'works again')).status).toBe(200);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('shows a freeze made in the console in the audit trail, with actor, request, client and before/after, and filters it by action', async () => {
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, p.boot.api_key);
      await page.getByRole('link', { name: 'Freeze key victim' }).click();
      await page.getByRole('button', { name: 'Freeze this key' }).click();
      await page.waitForURL(/done=frozen/);
      await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Audit' }).click();
      expect(await page.locator('h1').innerText()).toBe('Audit trail');
      const newest = page.locator('ol.entries > li').first();
      const text = await newest.innerText();
      expect(text).toContain('key.frozen');
      expect(text).toContain(victim.id);
      // The actor is the signed-in administrator through the console session, not "the server".
      expect(text).toContain(`user ${p.boot.user_id} with console session`);
      expect(text).toMatch(/Request id\s+req_/);
      expect(text).toContain('127.0.0.1');
      expect(text).toContain('HeadlessChrome');
      expect(await newest.locator('table.diff tr.changed', { hasText: 'status' }).innerText()).toMatch(
        /status\s+active\s+frozen/,
      );
      expect(await newest.locator('del').first().innerText()).toBe('active');
      await shoot(page, 'desktop-audit');
      // Filter by action through the form: only unfreezes (the earlier test made one) are left.
      await page.getByLabel('Action').fill('key.unfrozen');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/action=key\.unfrozen/);
      const actions = await page.locator('ol.entries .action').allInnerTexts();
      expect(actions.length).toBeGreaterThan(0);
      expect(new Set(actions)).toEqual(new Set(['key.unfrozen']));
      expect(await page.getByLabel('Action').inputValue()).toBe('key.unfrozen');
      // A prefix and a target: every key.* entry of the victim, the freeze among them.
      await page.goto(`${p.url}/console/audit?action=key.*&target=${victim.id}`);
      expect(await page.locator('ol.entries .action').allInnerTexts()).toEqual(
        expect.arrayContaining(['key.frozen', 'key.unfrozen', 'key.created']),
      );
      await page.goto(`${p.url}/console/keys`);
      await page.getByRole('link', { name: 'Unfreeze key victim' }).click();
      await page.getByRole('button', { name: 'Unfreeze this key' }).click();
      await page.waitForURL(/done=unfrozen/);
    } finally {
      await context.close();
    }
    const phone = await watched(390, 844);
    try {
      await signIn(phone.page, p.boot.api_key);
      await phone.page.goto(`${p.url}/console/audit`);
      await shoot(phone.page, 'phone-audit');
    } finally {
      await phone.context.close();
    }
  }, 60_000);

  it('follows the request log live: a request that 404s, made from outside, appears within seconds', async () => {
    for (const [label, width, height] of [
      ['desktop', 1280, 800],
      ['phone', 390, 844],
    ] as const) {
      const { context, page } = await watched(width, height);
      try {
        await signIn(page, p.boot.api_key);
        await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Requests' }).click();
        expect(await page.locator('h1').innerText()).toBe('Requests');
        await page.waitForSelector('#live[data-state=live]', { timeout: 5_000 });
        const missing = `/no-such-page-${label}-${Date.now()}`;
        expect((await p.fetch(missing)).status).toBe(404);
        const row = page.locator('#live-rows tr', { hasText: missing });
        await row.waitFor({ timeout: 5_000 });
        const cells = await row.locator('td').allInnerTexts();
        expect(cells.slice(1, 4)).toEqual(['404', 'GET', missing]);
        expect(cells[4]).toMatch(/^\d+(\.\d+)? ms$/);
        expect(cells[6]).toMatch(/^req_/);
        // A request made with a key shows the key's id, never the key.
        expect((await chat(victim.key, 'seen live')).status).toBe(200);
        const keyed = page.locator('#live-rows tr', { hasText: '/api/v1/chat/completions' }).first();
        await keyed.waitFor({ timeout: 5_000 });
        expect(await keyed.innerText()).toContain(victim.id);
        expect(await page.locator('#live-rows').innerText()).not.toContain(victim.key);
        await shoot(page, `${label}-requests`);
      } finally {
        await context.close();
      }
    }
  }, 60_000);

  it('filters the live log by status class, and without script shows the recent lines the server kept', async () => {
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, p.boot.api_key);
      await page.goto(`${p.url}/console/requests`);
      await page.getByLabel('Status').selectOption('4xx');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/status=4xx/);
      await page.waitForSelector('#live[data-state=live]', { timeout: 5_000 });
      const missing = `/filtered-${Date.now()}`;
      expect((await p.fetch('/healthz')).status).toBe(200);
      expect((await p.fetch(missing)).status).toBe(404);
      await page.locator('#live-rows tr', { hasText: missing }).waitFor({ timeout: 5_000 });
      const statuses = await page.locator('#live-rows tr td:nth-child(2)').allInnerTexts();
      expect(statuses.every((s) => s.startsWith('4'))).toBe(true);
    } finally {
      await context.close();
    }
    const still = await browser.newContext({ javaScriptEnabled: false });
    still.on('request', (r) => asked.push(r.url()));
    try {
      const page = await still.newPage();
      await signIn(page, p.boot.api_key);
      const missing = `/before-the-page-${Date.now()}`;
      expect((await p.fetch(missing)).status).toBe(404);
      await page.goto(`${p.url}/console/requests?status=404`);
      expect(await page.locator('#live').getAttribute('data-state')).toBe('static');
      expect(await page.locator('#live-rows tr', { hasText: missing }).count()).toBe(1);
      expect(await page.locator('#live-note').innerText()).toContain('Refresh the page');
    } finally {
      await still.close();
    }
  }, 60_000);

  it('shows a non-administrator only their own audit entries and requests, live too', async () => {
    const user = okJson(
      await p.cli(['serve', 'users', 'create', 'console-watcher', '--data-dir', p.dataDir, '--json']),
    );
    const made = await p.fetch('/admin/api-keys', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.id, name: 'watcher-key' }),
    });
    const own = (await made.json()) as { id: string; key: string };
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, own.key);
      await page.goto(`${p.url}/console/audit`);
      const entries = await page.locator('ol.entries').innerText();
      expect(entries).toContain('session.login');
      expect(entries).toContain(own.id);
      expect(entries).not.toContain(victim.id);
      expect(entries).not.toContain('key.frozen');
      await page.goto(`${p.url}/console/requests`);
      await page.waitForSelector('#live[data-state=live]', { timeout: 5_000 });
      // Someone else's request first, then one of this user's: only the second appears.
      const theirs = `/not-yours-${Date.now()}`;
      expect((await p.fetch(theirs, { headers: { 'X-API-Key': p.boot.api_key } })).status).toBe(404);
      expect((await chat(victim.key, 'not yours either')).status).toBe(200);
      expect((await p.fetch('/auth/audit?limit=1', { headers: { 'X-API-Key': own.key } })).status).toBe(200);
      await page.locator('#live-rows tr', { hasText: '/auth/audit' }).waitFor({ timeout: 5_000 });
      const rows = await page.locator('#live-rows').innerText();
      expect(rows).toContain(own.id);
      expect(rows).not.toContain(theirs);
      expect(rows).not.toContain(victim.id);
      expect(rows).not.toContain('/api/v1/chat/completions');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('draws the usage as inline SVG bars, per key and per model', async () => {
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, p.boot.api_key);
      await page.goto(`${p.url}/console/usage`);
      const charts = page.locator('svg.chart');
      expect(await charts.count()).toBe(2);
      expect(await charts.nth(1).locator('rect.bar').count()).toBeGreaterThan(0);
      expect(await charts.nth(1).locator('title').first().innerHTML()).toBe('Tokens per day by model');
      expect(await page.locator('body').innerText()).toContain('facet-echo');
      expect(await page.locator('body').innerText()).toContain('victim');
    } finally {
      await context.close();
    }
  }, 60_000);

  it("opens a task's images and a deck's slide previews", async () => {
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, p.boot.api_key);
      await page.goto(`${p.url}/console/tasks`);
      await page.getByRole('link', { name: taskId }).click();
      const widths = await loadedImages(page, 'figure img');
      expect(widths).toEqual([320, 320]);
      expect(await page.locator('pre.log').innerText()).toMatch(/illustration-1\.png/);
      if (hasDeck) {
        await page.goto(`${p.url}/console/decks`);
        const previews = await loadedImages(page, 'figure img');
        expect(previews.length).toBeGreaterThan(1);
        for (const w of previews) expect(w).toBeGreaterThan(100);
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  it('opens a landing page and a mindmap in their own viewers, from the console, on its origin', async () => {
    const { context, page } = await watched(1280, 800);
    try {
      await signIn(page, p.boot.api_key);
      for (const name of ['Landing pages', 'Mindmaps']) {
        await page.goto(`${p.url}/console/pages`);
        const link = page.getByRole('region', { name }).getByRole('link').first();
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.request().isNavigationRequest()),
          link.click(),
        ]);
        expect(response.status(), name).toBe(200);
        expect(page.url().startsWith(`${p.url}/`)).toBe(true);
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  it('refuses a form posted from another site', async () => {
    // A page of another origin (localhost is not 127.0.0.1 to a browser) with a form aimed at the console.
    const evil = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<form method="post" action="${p.url}/console/keys/${victim.id}/delete"><input name="csrf" value="x"><button>Win a prize</button></form>`,
      );
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, p.boot.api_key);
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const [response] = await Promise.all([
        page.waitForResponse(`${p.url}/console/keys/${victim.id}/delete`),
        page.getByRole('button', { name: 'Win a prize' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect((await chat(victim.key, 'not deleted')).status).toBe(200);
    } finally {
      await context.close();
      evil.close();
    }
  }, 60_000);

  it('loaded nothing from anywhere but its own origin', () => {
    expect(asked.length).toBeGreaterThan(20);
    expect(asked.filter((u) => !u.startsWith(`${p.url}/`))).toEqual([]);
  });
});

describe('console over HTTP', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const post = (pathname: string, body: string, headers: Record<string, string> = {}) =>
    p.fetch(pathname, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  async function session(): Promise<{ cookie: string; csrf: string }> {
    const res = await post('/console/login', form({ key: p.boot.api_key }), { origin: p.url });
    expect(res.status).toBe(303);
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    const page = await (await p.fetch('/console/keys', { headers: { cookie } })).text();
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1] };
  }

  it('sends a strict content security policy and the other protective headers on every console answer', async () => {
    for (const pathname of ['/console/login', '/console/keys', '/console/no-such-page']) {
      const res = await p.fetch(pathname, { redirect: 'manual' });
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    }
    expect((await p.fetch('/console/no-such-page')).status).toBe(404);
  });

  it('allows script only on the Requests page, only its own files, none inline; the tails take an administrator’s cookie', async () => {
    const { cookie } = await session();
    for (const pathname of ['/console/keys', '/console/audit', '/console/usage']) {
      expect((await p.fetch(pathname, { headers: { cookie } })).headers.get('content-security-policy')).toContain(
        "script-src 'none'",
      );
    }
    const res = await p.fetch('/console/requests', { headers: { cookie } });
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-|strict-dynamic|nonce-|https?:|\*/);
    const page = await res.text();
    expect([...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/console/assets/requests.js" defer>',
    ]);
    expect(page).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
    const script = await p.fetch('/console/assets/requests.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const source = await script.text();
    expect(source).not.toMatch(/innerHTML|eval\(|new Function|document\.write/);
    // The tails: the cookie of an administrator's session opens either; a user's session only its own.
    const tail = async (pathname: string, c: string) => {
      const controller = new AbortController();
      const r = await p.fetch(pathname, { headers: { cookie: c }, signal: controller.signal });
      controller.abort();
      return r.status;
    };
    expect(await tail('/admin/logs/tail', cookie)).toBe(200);
    expect(await tail('/auth/logs/tail', cookie)).toBe(200);
    expect((await p.fetch('/admin/logs/tail')).status).toBe(401);
    const user = okJson(await p.cli(['serve', 'users', 'create', 'tail-user', '--data-dir', p.dataDir, '--json']));
    const made = await p.fetch('/admin/api-keys', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.id, name: 'tail-key' }),
    });
    const login = await post('/console/login', form({ key: ((await made.json()) as { key: string }).key }), {
      origin: p.url,
    });
    const userCookie = login.headers.get('set-cookie')!.split(';')[0];
    expect(await tail('/admin/logs/tail', userCookie)).toBe(403);
    expect(await tail('/auth/logs/tail', userCookie)).toBe(200);
  });

  it('answers filters it cannot read with 400 and says why, never 500', async () => {
    const { cookie } = await session();
    for (const [pathname, why] of [
      ['/console/audit?since=yesterday', 'since'],
      ['/console/audit?cursor=not-a-cursor', 'cursor'],
      ['/console/audit?action=DROP%20TABLE', 'action'],
      ['/console/audit?actor=' + 'a'.repeat(101), 'actor'],
      ['/console/requests?status=9xx', 'status'],
      ['/console/requests?method=G3T', 'method'],
      ['/console/requests?path=' + 'p'.repeat(201), 'path'],
    ]) {
      const res = await p.fetch(pathname, { headers: { cookie } });
      expect(res.status, pathname).toBe(400);
      expect(await res.text(), pathname).toMatch(new RegExp(`These filters are not valid: [^<]*${why}`));
    }
    // At the bounds: a 100-character actor and a 200-character path are read (and match nothing).
    expect((await p.fetch('/console/audit?actor=' + 'a'.repeat(100), { headers: { cookie } })).status).toBe(200);
    expect((await p.fetch('/console/requests?path=' + 'p'.repeat(200), { headers: { cookie } })).status).toBe(200);
    // A datetime-local value (no zone) is read as UTC.
    const future = await (await p.fetch('/console/audit?since=2999-01-01T00:00', { headers: { cookie } })).text();
    expect(future).toContain('No entries match.');
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, Path=/, and Secure only over https', async () => {
    const plain = await post('/console/login', form({ key: p.boot.api_key }), { origin: p.url });
    const attrs = plain.headers
      .get('set-cookie')!
      .split(';')
      .map((s) => s.trim());
    expect(attrs[0]).toMatch(/^facet_session=fs_/);
    expect(attrs).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
    expect(attrs).not.toContain('Secure');
    // Behind a trusted proxy that ended TLS the cookie is Secure.
    const tls = await post('/console/login', form({ key: p.boot.admin_key }), { 'x-forwarded-proto': 'https' });
    expect(tls.status).toBe(303);
    expect(
      tls.headers
        .get('set-cookie')!
        .split(';')
        .map((s) => s.trim()),
    ).toContain('Secure');
  });

  it('signs in with the admin key as the administrator; a wrong key gets 401 and no cookie', async () => {
    const res = await post('/console/login', form({ key: p.boot.admin_key }), { origin: p.url });
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    expect(await (await p.fetch('/console/keys', { headers: { cookie } })).text()).toContain('(admin)');
    const wrong = await post('/console/login', form({ key: 'fk_not_a_key' }), { origin: p.url });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a form from another origin, without its token, or with another session’s token (403), and takes it otherwise', async () => {
    const a = await session();
    const b = await session();
    const target = `/console/keys/${victim.id}/freeze`;
    expect(
      (await post(target, form({ csrf: a.csrf }), { cookie: a.cookie, origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect(
      (await post(target, form({ csrf: a.csrf }), { cookie: a.cookie, 'sec-fetch-site': 'cross-site' })).status,
    ).toBe(403);
    expect((await post(target, form({}), { cookie: a.cookie, origin: p.url })).status).toBe(403);
    expect((await post(target, form({ csrf: b.csrf }), { cookie: a.cookie, origin: p.url })).status).toBe(403);
    expect(
      (await post('/console/login', form({ key: p.boot.api_key }), { origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect((await chat(victim.key, 'nothing frozen yet')).status).toBe(200);
    const done = await post(target, form({ csrf: a.csrf }), {
      cookie: a.cookie,
      origin: p.url,
      'sec-fetch-site': 'same-origin',
    });
    expect(done.status).toBe(303);
    expect((await chat(victim.key, 'frozen')).status).toBe(403);
    expect(
      (await post(`/console/keys/${victim.id}/unfreeze`, form({ csrf: a.csrf }), { cookie: a.cookie })).status,
    ).toBe(303);
  });

  it('escapes every value it shows: a key named with markup is text', async () => {
    ok(await p.cli(['keys', 'create', '--name', '<img src=x onerror=alert(1)>"&', '--json']));
    const s = await session();
    const page = await (await p.fetch('/console/keys', { headers: { cookie: s.cookie } })).text();
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&amp;');
    expect(page).not.toContain('<img src=x');
    // The audit trail shows the name in key.created's "after", escaped the same way.
    const audit = await (await p.fetch('/console/audit?action=key.created', { headers: { cookie: s.cookie } })).text();
    expect(audit).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&amp;');
    expect(audit).not.toContain('<img src=x');
  });

  it('takes a form of up to 16 KiB (413 past it) and answers a body of the wrong shape with 4xx, never 500', async () => {
    const padded = (bytes: number) => {
      const head = 'key=fk_nope&pad=';
      return head + 'x'.repeat(bytes - head.length);
    };
    expect((await post('/console/login', padded(16 * 1024), { origin: p.url })).status).toBe(401);
    const big = await post('/console/login', padded(16 * 1024 + 1), { origin: p.url });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toMatch(/^text\/html/);
    const json = await p.fetch('/console/login', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', origin: p.url },
      body: JSON.stringify({ key: 123 }),
    });
    expect(json.status).toBe(401);
    const multipart = new FormData();
    multipart.set('key', p.boot.api_key);
    expect(
      (
        await p.fetch('/console/login', {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: p.url },
          body: multipart,
        })
      ).status,
    ).toBe(415);
  });

  it('signing out ends the session: the cookie opens nothing afterwards', async () => {
    const s = await session();
    expect((await post('/console/logout', form({ csrf: s.csrf }), { cookie: s.cookie, origin: p.url })).status).toBe(
      303,
    );
    const after = await p.fetch('/console/keys', { headers: { cookie: s.cookie }, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/console/login');
  });

  it('a non-administrator sees only their own keys and may not freeze', async () => {
    const user = okJson(await p.cli(['serve', 'users', 'create', 'console-user', '--data-dir', p.dataDir, '--json']));
    const made = await p.fetch('/admin/api-keys', {
      method: 'POST',
      headers: { 'X-API-Key': p.boot.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.id, name: 'mine' }),
    });
    const key = ((await made.json()) as { key: string }).key;
    const res = await post('/console/login', form({ key }), { origin: p.url });
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    const page = await (await p.fetch('/console/keys', { headers: { cookie } })).text();
    expect(page).toContain('mine');
    expect(page).not.toContain('victim');
    expect(page).not.toContain('Freeze');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    expect((await post(`/console/keys/${victim.id}/delete`, form({ csrf }), { cookie, origin: p.url })).status).toBe(
      404,
    );
    expect((await p.fetch(`/console/keys/${victim.id}/freeze`, { headers: { cookie } })).status).toBe(404);
  });
});

describe('facet serve --no-console', () => {
  it('serves no console: /console is a 404', async () => {
    const off = await startPlatform({ args: ['--no-console'] });
    try {
      expect((await off.fetch('/console')).status).toBe(404);
      expect((await off.fetch('/console/login')).status).toBe(404);
      expect((await off.fetch('/healthz')).status).toBe(200);
    } finally {
      off.cleanup();
    }
  }, 60_000);
});
