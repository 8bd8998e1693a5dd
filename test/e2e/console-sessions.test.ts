import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';
import { DEFAULT_CHROMIUM } from '../../src/server/engines/screenshot.js';

/**
 * Issue 38: a console session opened with an API key ends when that key is frozen or deleted (and
 * stays ended when it is unfrozen); sign-in attempts are limited per client address and key prefix
 * together (10 failures a minute) and per address (60), then 429 with Retry-After (issue 47: a
 * stranger who knows a key's prefix cannot lock its owner out from another address).
 */
const executablePath = process.env.FACET_CHROMIUM ?? DEFAULT_CHROMIUM;
let p: Platform;
let browser: Browser | undefined;
beforeAll(async () => {
  // Trusting the local proxy lets a test speak for several client addresses (X-Forwarded-For).
  p = await startPlatform({ args: ['--trust-proxy', '127.0.0.1'] });
});
afterAll(async () => {
  await browser?.close();
  p?.cleanup();
});

const newKey = async () => okJson<{ id: string; key: string }>(await p.cli(['keys', 'create', '--json']));
const form = (key: string) => new URLSearchParams({ key }).toString();
const signIn = (key: string, client = '10.9.9.9') =>
  p.fetch('/console/login', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.url, 'x-forwarded-for': client },
    body: form(key),
  });

async function session(key: string): Promise<string> {
  const r = await signIn(key);
  expect(r.status).toBe(303);
  return r.headers.get('set-cookie')!.split(';')[0];
}

/** What the API answers the cookie on a route that takes it (the user's own log tail, a stream). */
async function apiWithCookie(cookie: string): Promise<string> {
  const ac = new AbortController();
  const r = await p.fetch('/auth/logs/tail', { headers: { cookie }, signal: ac.signal });
  const answer = r.status === 200 ? '200' : `${r.status} ${((await r.json()) as { code: string }).code}`;
  ac.abort();
  return answer;
}

/** Where a console page load lands: the page itself (200) or the sign-in (303 to /console/login). */
async function landing(cookie: string): Promise<string> {
  const r = await p.fetch('/console/keys', { headers: { cookie }, redirect: 'manual' });
  return r.status === 200 ? 'keys' : `${r.status} ${r.headers.get('location')}`;
}

describe('revocation reaches every session', () => {
  it('freezing the key ends its console session and the cookie on the API; unfreezing does not bring it back', async () => {
    const key = await newKey();
    const cookie = await session(key.key);
    const other = await session(p.boot.api_key);
    expect(await landing(cookie)).toBe('keys');
    expect(await apiWithCookie(cookie)).toBe('200');
    ok(await p.cli(['admin', 'keys', 'freeze', key.id]));
    expect(await landing(cookie)).toBe('303 /console/login');
    expect(await apiWithCookie(cookie)).toBe('401 INVALID_SESSION');
    ok(await p.cli(['admin', 'keys', 'unfreeze', key.id]));
    expect(await landing(cookie)).toBe('303 /console/login');
    // A session opened with another key is untouched.
    expect(await landing(other)).toBe('keys');
    // The unfrozen key signs in again.
    expect(await landing(await session(key.key))).toBe('keys');
  });

  it('deleting the key ends its console session', async () => {
    const key = await newKey();
    const cookie = await session(key.key);
    expect(await landing(cookie)).toBe('keys');
    ok(await p.cli(['keys', 'delete', key.id, '--yes']));
    expect(await landing(cookie)).toBe('303 /console/login');
  });

  it('in Chromium: signed in with a key, the key frozen through the CLI, the next page load is the sign-in page', async () => {
    browser = await chromium.launch({
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const key = await newKey();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${p.url}/console`);
      expect(new URL(page.url()).pathname).toBe('/console/login');
      await page.getByLabel('API key or admin key').fill(key.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${p.url}/console/keys`);
      await page.goto(`${p.url}/console/usage`);
      expect(new URL(page.url()).pathname).toBe('/console/usage');
      ok(await p.cli(['admin', 'keys', 'freeze', key.id]));
      await page.reload();
      expect(new URL(page.url()).pathname).toBe('/console/login');
      expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('sign-in attempts are limited', () => {
  it('200 wrong keys with one prefix from one address: 401 for the first 10, then 429 with Retry-After; another key from there still signs in', async () => {
    const client = '10.1.1.1';
    const statuses: number[] = [];
    let limited: { headers: Headers; text: string } | undefined;
    for (let i = 0; i < 200; i++) {
      const r = await signIn(`fk_${String(i).padStart(40, 'x')}`, client);
      statuses.push(r.status);
      const text = await r.text();
      if (r.status === 429) limited ??= { headers: r.headers, text };
    }
    // A minute's window may turn over during the run: at most two windows' worth get through.
    const refused = statuses.filter((s) => s === 401).length;
    expect(refused).toBeGreaterThanOrEqual(10);
    expect(refused).toBeLessThanOrEqual(20);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    expect(statuses.filter((s) => s === 429).length).toBe(200 - refused);
    const retry = Number(limited!.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited!.headers.get('content-type')).toMatch(/^text\/html/);
    const page = limited!.text;
    expect(page).toMatch(
      /Too many failed sign-ins with this key from this address \(10 a minute\): try again in \d+ s/,
    );
    expect(page).toContain('API key or admin key');
    // The right key with that prefix is held up from there too; another key (another prefix) is not.
    const samePrefix = await signIn(`fk_xxxxxxx${'0'.repeat(33)}`, client);
    expect(samePrefix.status).toBe(429);
    expect((await signIn(p.boot.api_key, client)).status).toBe(303);
    // Another address is not held up.
    expect((await signIn(p.boot.api_key, '10.1.1.2')).status).toBe(303);
  });

  it('60 wrong keys with 60 prefixes from one address: then 429 from that address, whatever the key', async () => {
    const client = '10.3.3.3';
    for (let i = 0; i < 60; i++) {
      const r = await signIn(`fk_${String(i).padStart(7, '0')}${'q'.repeat(33)}`, client);
      // A minute's window may turn over during the run: then the count starts again.
      if (r.status === 429) break;
      expect(r.status).toBe(401);
    }
    const r = await signIn(p.boot.api_key, client);
    if (r.status !== 429) return; // the window turned over mid-run: nothing left to see this minute
    expect(await r.text()).toMatch(/Too many failed sign-ins from this address \(60 a minute\)/);
  });

  it("a stranger failing 30 times with a key's prefix from elsewhere cannot lock its owner out", async () => {
    const owner = await newKey();
    const prefix = owner.key.slice(0, 10);
    for (let i = 0; i < 30; i++) {
      const r = await signIn(`${prefix}${String(i).padStart(33, 'y')}`, '10.2.0.1');
      expect([401, 429]).toContain(r.status);
    }
    // The stranger's address may be held up with that prefix; the owner's is not, with the right key.
    expect((await signIn(owner.key, '10.2.9.9')).status).toBe(303);
  });
});

describe('the admin key replaced', () => {
  it('a console session opened with the old admin key ends when the server restarts with another --admin-key', async () => {
    const first = await startPlatform();
    try {
      const r = await first.fetch('/console/login', {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: first.url },
        body: form(first.boot.admin_key),
      });
      expect(r.status).toBe(303);
      const cookie = r.headers.get('set-cookie')!.split(';')[0];
      const page = async (platform: Platform) =>
        (await platform.fetch('/console/keys', { headers: { cookie }, redirect: 'manual' })).status;
      expect(await page(first)).toBe(200);
      await first.stop();
      const next = await startPlatform({
        dataDir: first.dataDir,
        configDir: first.configDir,
        args: ['--admin-key', `fadm_${'n'.repeat(40)}`],
      });
      try {
        expect(await page(next)).toBe(303);
        // A session made with the token of the same administrator is not affected by the key's change.
        const other = await next.fetch('/auth/session-cookie', {
          method: 'POST',
          headers: { authorization: `Bearer ${first.boot.access_token}` },
        });
        expect(other.status).toBeLessThan(300);
        const tokenCookie = other.headers.get('set-cookie')!.split(';')[0];
        expect(
          (await next.fetch('/console/keys', { headers: { cookie: tokenCookie }, redirect: 'manual' })).status,
        ).toBe(200);
      } finally {
        next.cleanup();
      }
    } finally {
      first.cleanup();
    }
  }, 60_000);
});
