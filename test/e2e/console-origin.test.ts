import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 38: the console answers only under its own names. A page whose name was rebound to this
 * machine (DNS rebinding) sends `Host: evil.example` and a matching Origin: no page, no sign-in.
 */
let p: Platform;
let pub: Platform;
beforeAll(async () => {
  [p, pub] = await Promise.all([
    startPlatform(),
    startPlatform({ args: ['--public-url', 'https://facet.example.com/base'] }),
  ]);
});
afterAll(() => {
  p?.cleanup();
  pub?.cleanup();
});

/** A request with a Host header of our choosing (fetch would not send it). */
function raw(
  platform: Platform,
  pathname: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(platform.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: pathname,
        method: init.method ?? 'GET',
        headers: { ...init.headers, host },
        setHost: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const signInForm = (platform: Platform, host: string, origin: string) =>
  raw(platform, '/console/login', host, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ key: platform.boot.api_key }).toString(),
  });

describe('the console trusts only its own origin', () => {
  it('refuses a sign-in posted with Host: evil.example and a matching Origin (421, the console error page, no cookie)', async () => {
    const port = new URL(p.url).port;
    const r = await signInForm(p, `evil.example:${port}`, `http://evil.example:${port}`);
    expect(r.status).toBe(421);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(r.body).toContain('Refused');
    expect(r.body).toContain(`This console answers at 127.0.0.1:${port}, not at evil.example:${port}`);
  });

  it('refuses reads under another name too (a rebound page could read what it is shown)', async () => {
    const port = new URL(p.url).port;
    for (const pathname of ['/console/login', '/console/keys', '/console/console.css', '/console'])
      expect((await raw(p, pathname, `evil.example:${port}`)).status, pathname).toBe(421);
    expect((await raw(p, '/console/login', 'evil.example')).status).toBe(421);
    // Another port of this machine is another origin.
    expect((await raw(p, '/console/login', `127.0.0.1:${Number(port) + 1}`)).status).toBe(421);
    // The API keeps its own rules (keys, not cookies): not affected.
    expect((await raw(p, '/healthz', `evil.example:${port}`)).status).toBe(200);
  });

  it('answers at the listen address and its loopback aliases at the same port', async () => {
    const port = new URL(p.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
      expect((await raw(p, '/console/login', host)).status, host).toBe(200);
    const ok = await signInForm(p, `localhost:${port}`, `http://localhost:${port}`);
    expect(ok.status).toBe(303);
  });

  it('with --public-url, answers at its host (a proxy passing Host through) and at the listen address', async () => {
    const port = new URL(pub.url).port;
    expect((await raw(pub, '/console/login', 'facet.example.com')).status).toBe(200);
    expect((await raw(pub, '/console/login', `127.0.0.1:${port}`)).status).toBe(200);
    const evil = await raw(pub, '/console/login', 'evil.example');
    expect(evil.status).toBe(421);
    expect(evil.body).toContain('This console answers at facet.example.com, not at evil.example');
  });
});
