import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { hugePage } from '../helpers/huge-page.js';

const CHROMIUM = process.env.FACET_CHROMIUM ?? '/usr/bin/chromium';
const CHUNK = Buffer.alloc(64 * 1024, '<p>lanterns</p>');
const huge = hugePage(CHUNK);
// A script of 400 MB of spaces: the page's load waits for all of it.
const heavyScript = hugePage(Buffer.alloc(64 * 1024, ' '));

/** Pages on 127.0.0.1 only, reached as `localhost` (a name) or `127.0.0.1` (an address). */
let port = 0;
const hits = new Map<string, number>();
const pages = http.createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  hits.set(path, (hits.get(path) ?? 0) + 1);
  if (path === '/page') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end(
      '<html><head><title>Harbour notes</title></head><body><article><h1>Harbour notes</h1><p>The lighthouse keeps the harbour safe all night long.</p></article></body></html>',
    );
  }
  if (path === '/with-pixel') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end(
      `<html><head><title>Pixel</title></head><body><h1>Pixel</h1><img src="http://127.0.0.1:${port}/pixel"></body></html>`,
    );
  }
  // Pages that send the browser on to a refused address themselves, after answering 200.
  if (path === '/nav-js' || path === '/nav-meta') {
    const to = `http://127.0.0.1:${port}/page`;
    const how =
      path === '/nav-js'
        ? `<script>location.href = ${JSON.stringify(to)};</script>`
        : `<meta http-equiv="refresh" content="0;url=${to}">`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end(
      `<html><head><title>Leaving</title>${path === '/nav-meta' ? how : ''}</head><body><p>On the way out.</p>${path === '/nav-js' ? how : ''}</body></html>`,
    );
  }
  if (path === '/to-internal') return void res.writeHead(302, { location: `http://127.0.0.1:${port}/page` }).end();
  if (path === '/huge') return huge.serve(res);
  if (path === '/heavy') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end(
      '<html><head><title>Heavy</title></head><body><p>One very large script.</p><script src="/heavy.js"></script></body></html>',
    );
  }
  if (path === '/heavy.js') return heavyScript.serve(res);
  res.writeHead(404).end();
});

let closed: Platform;
let open: Platform;
const json = (r: { stdout: string; stderr: string; exitCode: number }) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const local = (path: string) => `http://localhost:${port}${path}`;

beforeAll(async () => {
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  port = (pages.address() as AddressInfo).port;
  // No allowance at all, and one for the name `localhost` only (given by environment).
  [closed, open] = await Promise.all([
    startPlatform({ allowLocalFetch: false }),
    startPlatform({ allowLocalFetch: false, env: { FACET_ALLOW_FETCH_FROM: 'localhost' } }),
  ]);
});
afterAll(async () => {
  closed?.cleanup();
  open?.cleanup();
  pages.closeAllConnections();
  await new Promise<void>((r) => pages.close(() => r()));
});

async function addUrls(p: Platform, urls: string[]) {
  const ld = json(await p.cli(['livedocs', 'create', `fetch ${Math.random()}`, '--json'])).short_id;
  const r = await p.cli(['livedocs', 'resources', 'add-url', ld, ...urls, '--json'], { timeout: 120_000 });
  const results = JSON.parse(r.stdout) as { url: string; status: string; fail_reason: string | null }[];
  // The CLI prints the results, then exits 1 when no URL could be added.
  expect(r.exitCode, r.stderr).toBe(results.some((x) => x.status !== 'failed') ? 0 : 1);
  return results;
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

describe('the outbound fetch policy through the real server', () => {
  it('LiveDoc URL add refuses a name that resolves to 127.0.0.1, and accepts it with --allow-fetch-from', async () => {
    const before = hits.get('/page') ?? 0;
    const [refused] = await addUrls(closed, [local('/page')]);
    expect(refused).toMatchObject({ status: 'failed' });
    expect(refused.fail_reason).toBe(
      `refused to fetch ${local('/page')}: localhost resolves to 127.0.0.1, a loopback address; facet serve --allow-fetch-from localhost (or 127.0.0.1/32) allows it`,
    );
    expect(hits.get('/page') ?? 0).toBe(before);

    const [allowed] = await addUrls(open, [local('/page')]);
    expect(allowed).toMatchObject({ status: 'success', fail_reason: null });
  });

  it('piped, add-url prints the new ids on stdout and says on stderr which URL failed and why', async () => {
    const ld = json(await open.cli(['livedocs', 'create', 'reasons', '--json'])).short_id;
    const refused = `http://127.0.0.1:${port}/page`;
    const both = await open.cli(['livedocs', 'resources', 'add-url', ld, local('/page'), refused]);
    expect(both.exitCode, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/^\S+\n$/);
    expect(both.stderr).toContain(
      `warning: could not add ${refused}: refused to fetch ${refused}: 127.0.0.1 is a loopback address`,
    );
    expect(both.stderr).toContain('1 of 2 URLs failed');
    const one = await open.cli(['livedocs', 'resources', 'add-url', ld, refused]);
    expect(one.exitCode).toBe(1);
    expect(one.stderr).toContain(
      `error: could not add ${refused}: refused to fetch ${refused}: 127.0.0.1 is a loopback address`,
    );
  });

  it('refuses an allowed page that redirects to a refused address at the hop', async () => {
    const before = hits.get('/page') ?? 0;
    const [r] = await addUrls(open, [local('/to-internal')]);
    expect(r.status).toBe('failed');
    expect(r.fail_reason).toBe(
      `refused to fetch http://127.0.0.1:${port}/page (redirected from ${local('/to-internal')}): 127.0.0.1 is a loopback address; facet serve --allow-fetch-from 127.0.0.1 allows it`,
    );
    expect(hits.get('/page') ?? 0).toBe(before);
  });

  it('refuses the metadata address and odd spellings of loopback', async () => {
    const results = await addUrls(closed, [
      'http://169.254.169.254/latest/meta-data/',
      `http://2130706433:${port}/page`,
      `http://[::ffff:127.0.0.1]:${port}/page`,
      'http://0.0.0.0:9/',
    ]);
    expect(results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(results[0].fail_reason).toMatch(
      /169\.254\.169\.254 is a link-local address; facet serve --allow-fetch-from 169\.254\.169\.254 allows it/,
    );
    expect(results[1].fail_reason).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(results[2].fail_reason).toMatch(/::ffff:7f00:1 is a loopback address/);
    expect(results[3].fail_reason).toMatch(/0\.0\.0\.0 is an unspecified address/);
  });

  it('refuses a 400 MB chunked page while the server RSS grows by less than 100 MB', async () => {
    const before = rssOf(open.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(open.pid))), 25);
    let r;
    try {
      [r] = await addUrls(open, [local('/huge')]);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssOf(open.pid));
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    expect(r.status).toBe('failed');
    expect(r.fail_reason).toBe(`the response from ${local('/huge')} is larger than 15 MB`);
    // Reading stopped at the cap and the connection closed: the sender was cut off early.
    expect(huge.sent()).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);

  it('fails an image task whose project site is refused, with the policy message and no retry', async () => {
    const project = json(await closed.cli(['projects', 'create', 'Sites', '--json']));
    const add = await closed.cli(['projects', 'add-site', project.id, local('/page')]);
    expect(add.exitCode, add.stderr).toBe(0);
    const siteId = add.stdout.trim();
    const r = await closed.cli([
      'tasks',
      'create',
      '--kind',
      'illustration',
      '--prompt',
      'harbour',
      '--size',
      '100x100',
      '--project',
      project.id,
      '--site',
      siteId,
      '--wait',
      '--interval',
      '0.2',
    ]);
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toMatch(
      /site http:\/\/localhost:\d+\/page: refused to fetch http:\/\/localhost:\d+\/page: localhost resolves to 127\.0\.0\.1, a loopback address; facet serve --allow-fetch-from localhost/,
    );
    const id = /(task_[0-9a-z]+)/.exec(r.stderr)![1];
    expect(json(await closed.cli(['tasks', 'get', id, '--json']))).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('refuses a malformed allowance as a usage error', async () => {
    const r = await runCli(
      tempDir('cfg'),
      ['serve', '--memory', '--port', '0', '--allow-fetch-from', 'localhost:3000'],
      { timeout: 20_000 },
    );
    expect(r.exitCode).toBe(2);
    // Not a terminal, so serve's lines are JSON: one fatal line that says what was wrong.
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 60,
      msg: expect.stringMatching(
        /--allow-fetch-from "localhost:3000": expected a host name, an IP address or a CIDR block/,
      ) as unknown,
    });
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`screenshots under the fetch policy (needs Chromium at ${CHROMIUM})`, () => {
  const shoot = (p: Platform, url: string) =>
    p.cli(
      [
        'tasks',
        'create',
        '--kind',
        'screenshot',
        '--url',
        url,
        '--size',
        '400x300',
        '--wait',
        '--interval',
        '0.2',
        '--json',
      ],
      { timeout: 90_000 },
    );

  it('fails a screenshot of a refused address with the policy message', async () => {
    const r = await shoot(closed, local('/page'));
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toMatch(
      /screenshot failed: refused to fetch http:\/\/localhost:\d+\/page: localhost resolves to 127\.0\.0\.1, a loopback address; facet serve --allow-fetch-from localhost/,
    );
  }, 120_000);

  it("checks Chromium's redirects and subrequests: a refused hop fails the capture, a refused image is blocked", async () => {
    const pageHits = hits.get('/page') ?? 0;
    const hop = await shoot(open, local('/to-internal'));
    expect(hop.exitCode, hop.stderr).toBe(6);
    expect(hop.stderr).toMatch(
      /screenshot failed: refused to fetch http:\/\/127\.0\.0\.1:\d+\/page: 127\.0\.0\.1 is a loopback address; facet serve --allow-fetch-from 127\.0\.0\.1 allows it/,
    );
    expect(hits.get('/page') ?? 0).toBe(pageHits);

    const shot = await shoot(open, local('/with-pixel'));
    expect(shot.exitCode, shot.stderr).toBe(0);
    expect(JSON.parse(shot.stdout).result).toMatchObject({ title: 'Pixel' });
    expect(hits.get('/pixel') ?? 0).toBe(0);
    const logs = await open.cli(['tasks', 'logs', JSON.parse(shot.stdout).id]);
    expect(logs.stdout).toMatch(
      /blocked 1 request\(s\) of the page: refused to fetch http:\/\/127\.0\.0\.1:\d+\/pixel/,
    );
  }, 180_000);

  it('a page that navigates itself (script, meta refresh) to a refused address fails as a redirect there does: screenshot and fine extract', async () => {
    const pageHits = hits.get('/page') ?? 0;
    const refusal = new RegExp(
      `refused to fetch http://127\\.0\\.0\\.1:${port}/page: 127\\.0\\.0\\.1 is a loopback address; facet serve --allow-fetch-from 127\\.0\\.0\\.1 allows it`,
    );
    for (const path of ['/nav-js', '/nav-meta']) {
      const shot = await shoot(open, local(path));
      expect(shot.exitCode, `${path}: ${shot.stdout} ${shot.stderr}`).toBe(6);
      expect(shot.stderr).toMatch(/screenshot failed: /);
      expect(shot.stderr).toMatch(refusal);

      const res = await open.fetch('/v2/web/extract', {
        method: 'POST',
        headers: { authorization: `Bearer ${open.boot.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: local(path), crawl_mode: 'fine', with_cache: false }),
      });
      const body = await res.json();
      expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(400);
      expect(body).toMatchObject({ code: 'WEB_EXTRACT_FAILED', message: expect.stringMatching(refusal) });
    }
    expect(hits.get('/page') ?? 0).toBe(pageHits);
  }, 240_000);

  it("a page whose downloads pass the browser's 100 MB budget fails: the download is cut there", async () => {
    const shot = await shoot(open, local('/heavy'));
    expect(shot.exitCode, `${shot.stdout} ${shot.stderr}`).toBe(6);
    expect(shot.stderr).toMatch(
      /screenshot failed: the page and what it loads passed 100 MB; the browser's downloads were stopped there/,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(heavyScript.sent()).toBeLessThan(200 * 1024 * 1024);
  }, 120_000);
});
