import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { servePages, type PageServer } from '../helpers/pages.js';
import { gzipBomb } from '../helpers/huge-page.js';

const CHROMIUM = process.env.FACET_CHROMIUM ?? '/usr/bin/chromium';
const ARTICLE_TEXT = 'The harbour lighthouse was built in 1880 and still guides every fishing boat home. '.repeat(6);
const article = `<!doctype html><html><head><title>Harbour notes</title><meta name="description" content="About the harbour">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Harbour"}</script>
<meta property="og:type" content="article"></head>
<body><nav><a href="/home">Home</a> <a href="https://elsewhere.example/x">Elsewhere</a> Navigation menu text</nav>
<article><h1>Harbour notes</h1><p>${ARTICLE_TEXT}</p><p><a href="/more">More about boats</a></p>
<img src="/boat.png" alt="A fishing boat" width="640" height="480"><img src="/spacer.gif"></article>
<footer id="foot"><p>Footer words only here</p></footer><script>document.write('scripted')</script></body></html>`;
const tiny = '<html><head><title>Tiny</title></head><body><p>Short.</p><div class="box">Box text</div></body></html>';
const scripted = `<html><head><title>Later</title></head><body><div id="root">Loading…</div>
<script>setTimeout(() => { const d = document.createElement('p'); d.id = 'late'; d.textContent = 'Rendered by a script after load'; document.getElementById('root').replaceChildren(d); }, 300);</script></body></html>`;

let pages: PageServer;
let p: Platform;
// Writes back the Cookie and User-Agent it received, as the page's text.
const echo = http.createServer((req, res) => {
  res
    .writeHead(200, { 'content-type': 'text/html' })
    .end(
      `<html><body><p id="c">cookie=${req.headers.cookie ?? 'none'}</p><p id="u">ua=${req.headers['user-agent']}</p></body></html>`,
    );
});
let echoUrl = '';

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

beforeAll(async () => {
  // Sent gzip-encoded whatever the request asked, as some servers and CDNs do.
  const gzipped = { 'content-encoding': 'gzip' };
  pages = await servePages({
    '/gzip': { body: gzipSync(article), headers: gzipped },
    // 1 GiB of zeros in about 1 MB: it must be refused at the body cap as it inflates.
    '/gzip-bomb': { body: await gzipBomb(1024 * 1024 * 1024), headers: gzipped },
    '/article': { body: article },
    '/tiny': { body: tiny },
    '/scripted': { body: scripted },
    '/pdf': { type: 'application/pdf', body: Buffer.from('%PDF-1.4\n') },
    '/gone': { status: 404, body: 'gone' },
    '/counter': { body: article },
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
  p = await startPlatform();
}, 60_000);
afterAll(async () => {
  p?.cleanup();
  await pages?.close();
  await new Promise<void>((r) => echo.close(() => r()));
});

const extract = (args: string[]) => p.cli(['extract', ...args], { timeout: 90_000 });
const api = (body: unknown) =>
  p.fetch('/v2/web/extract', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('facet extract against pages served on 127.0.0.1', () => {
  it('markdown by default: the whole cleaned page, scripts dropped', async () => {
    const r = await extract([`${pages.url}/article`, '--no-cache']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('# Harbour notes');
    expect(r.stdout).toContain('Navigation menu text');
    expect(r.stdout).toContain('Footer words only here');
    expect(r.stdout).not.toContain('document.write');
  });

  it('--readability keeps the main content only; a page with too little falls back with a warning', async () => {
    const main = okJson(
      await extract([`${pages.url}/article`, '--readability', '--format', 'text', '--json', '--no-cache']),
    );
    expect(main.readability).toBe('article');
    expect(main.content).toContain('lighthouse was built in 1880');
    expect(main.content).not.toContain('Navigation menu text');
    expect(main.content).not.toContain('Footer words only here');
    expect(main.warnings).toEqual([]);

    const small = okJson(await extract([`${pages.url}/tiny`, '--readability', '--format', 'text', '--json']));
    expect(small.readability).toBe('fallback');
    expect(small.content).toBe('Short.\nBox text');
    expect(small.warnings[0]).toMatch(/readability kept too little/);

    const strict = await api({ url: `${pages.url}/tiny`, with_readability: 'strict' });
    expect(strict.status).toBe(400);
    expect(await strict.json()).toMatchObject({
      status: 'error',
      code: 'WEB_EXTRACT_FAILED',
      message: expect.stringMatching(/no main content/),
    });
  });

  it('output formats: html keeps tags, text has none, markdown has its syntax', async () => {
    const html = okJson(await extract([`${pages.url}/article`, '--format', 'html', '--selector', 'article', '--json']));
    expect(html.content).toMatch(/^<article><h1>Harbour notes<\/h1>/);
    const text = okJson(await extract([`${pages.url}/article`, '--format', 'text', '--selector', 'article', '--json']));
    expect(text.content.startsWith('Harbour notes\n')).toBe(true);
    expect(text.content).not.toContain('<');
    const md = okJson(
      await extract([`${pages.url}/article`, '--format', 'markdown', '--selector', 'article', '--json']),
    );
    // Links point where they pointed on the page: absolute against its URL.
    expect(md.content).toContain(`[More about boats](${pages.url}/more)`);
  });

  it('target_selector extracts only its element; a miss is a 400 naming the selector', async () => {
    const foot = okJson(await extract([`${pages.url}/article`, '--selector', '#foot', '--format', 'text', '--json']));
    expect(foot.content).toBe('Footer words only here');
    const miss = await extract([`${pages.url}/article`, '--selector', '#nothing-here']);
    expect(miss.exitCode).toBe(1);
    // The CLI names the flag the person typed; the API names its field.
    expect(miss.stderr).toContain('--selector "#nothing-here" matches no element on the page');
    const res = await api({ url: `${pages.url}/article`, target_selector: '#nothing-here' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'WEB_EXTRACT_FAILED',
      message: expect.stringContaining('target_selector "#nothing-here" matches no element'),
    });
  });

  it('links, images and their summaries; ignore_empty_text_image and with_images_readability; stypes', async () => {
    const res = await api({
      url: `${pages.url}/article`,
      with_links: true,
      with_links_summary: true,
      with_images: true,
      with_images_summary: true,
      with_stypes: true,
    });
    const { data } = await res.json();
    expect(data.links).toEqual([
      { url: `${pages.url}/home`, text: 'Home' },
      { url: 'https://elsewhere.example/x', text: 'Elsewhere' },
      { url: `${pages.url}/more`, text: 'More about boats' },
    ]);
    expect(data.links_summary).toMatchObject({ total: 3, internal: 2, external: 1 });
    expect(data.images.map((i: { url: string }) => i.url)).toEqual([
      `${pages.url}/boat.png`,
      `${pages.url}/spacer.gif`,
    ]);
    expect(data.images[0]).toMatchObject({ alt: 'A fishing boat', width: 640, height: 480 });
    expect(data.images_summary).toEqual({ total: 2, with_text: 1, without_text: 1 });
    expect(data.stypes).toEqual(['NewsArticle', 'og:article']);

    const filtered = (
      await (await api({ url: `${pages.url}/article`, with_images: true, ignore_empty_text_image: true })).json()
    ).data;
    expect(filtered.images.map((i: { alt: string }) => i.alt)).toEqual(['A fishing boat']);
    const plain = (await (await api({ url: `${pages.url}/article` })).json()).data;
    expect(plain.links).toBeUndefined();
    expect(plain.images).toBeUndefined();
    expect(plain.stypes).toBeUndefined();
  });

  it('the cache: a second request is served from it, with_cache false and cookies fetch again', async () => {
    const url = `${pages.url}/counter`;
    const first = (await (await api({ url })).json()).data;
    expect(first.cached).toBe(false);
    const hits = pages.hits.get('/counter');
    const second = (await (await api({ url: `${url}#fragment` })).json()).data;
    expect(second.cached).toBe(true);
    expect(second.content).toBe(first.content);
    expect(pages.hits.get('/counter')).toBe(hits);
    const fresh = (await (await api({ url, with_cache: false })).json()).data;
    expect(fresh.cached).toBe(false);
    expect(pages.hits.get('/counter')).toBe(hits! + 1);
    const withCookie = (await (await api({ url, set_cookies: ['session=abc'] })).json()).data;
    expect(withCookie.cached).toBe(false);
    expect(pages.hits.get('/counter')).toBe(hits! + 2);
    // The cookie-bearing fetch was not stored: the next plain request still gets the first entry.
    expect((await (await api({ url })).json()).data.fetched_at).toBe(first.fetched_at);
  });

  it('client-side failures are 400 WEB_EXTRACT_FAILED: a 404 page, a PDF, a bad URL, a bad option', async () => {
    for (const [body, msg] of [
      [{ url: `${pages.url}/gone` }, /HTTP 404/],
      [{ url: `${pages.url}/pdf` }, /not HTML \(application\/pdf\)/],
      [{ url: 'ftp://example.com/x' }, /absolute http or https URL/],
      [{ url: `${pages.url}/article`, output_format: 'pdf' }, /output_format/],
      [{ url: `${pages.url}/article`, timeout: 10 }, /timeout/],
    ] as const) {
      const res = await api(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        status: 'error',
        code: 'WEB_EXTRACT_FAILED',
        message: expect.stringMatching(msg),
      });
    }
  });

  it('a gzip-encoded page is decoded; a gzip bomb is refused at the body cap with a 400, memory flat', async () => {
    const page = okJson(
      await extract([`${pages.url}/gzip`, '--readability', '--format', 'text', '--json', '--no-cache']),
    );
    expect(page.title).toBe('Harbour notes');
    expect(page.content).toContain('lighthouse was built in 1880');

    const before = rssOf(p.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(p.pid))), 20);
    let res;
    try {
      res = await api({ url: `${pages.url}/gzip-bomb`, with_cache: false });
    } finally {
      clearInterval(sampler);
    }
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'WEB_EXTRACT_FAILED',
      message: `the response from ${pages.url}/gzip-bomb is larger than 15 MB once decompressed`,
    });
    expect(Math.max(peak, rssOf(p.pid)) - before).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);

  it('set_cookies and user_agent are sent with the fetch', async () => {
    const plain = okJson(await extract([echoUrl, '--format', 'text', '--json', '--no-cache']));
    expect(plain.content).toMatch(/^cookie=none\nua=facet\//);
    const sent = okJson(
      await extract([
        echoUrl,
        '--format',
        'text',
        '--json',
        '--cookie',
        'session=abc',
        '--cookie',
        'lang=de',
        '--user-agent',
        'ReaderBot/2',
      ]),
    );
    expect(sent.content).toBe('cookie=session=abc; lang=de\nua=ReaderBot/2');
    const objects = (
      await (await api({ url: echoUrl, output_format: 'text', set_cookies: [{ name: 'a', value: '1' }] })).json()
    ).data;
    expect(objects.content).toMatch(/^cookie=a=1\n/);
    const bad = await extract([echoUrl, '--cookie', 'no-equals-sign']);
    expect(bad.exitCode).toBe(2);
  });

  it('--out writes the content to a file', async () => {
    const file = path.join(tempDir('extract'), 'page.md');
    const r = await extract([`${pages.url}/article`, '--selector', 'h1', '--out', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('# Harbour notes\n');
  });
});

describe.skipIf(!existsSync(CHROMIUM))('fine mode in Chromium', () => {
  it('fast mode sees the page before its script ran; fine mode and wait_for_selector see what the script wrote', async () => {
    const fast = okJson(await extract([`${pages.url}/scripted`, '--format', 'text', '--json']));
    expect(fast.content).toBe('Loading…');
    const fine = okJson(await extract([`${pages.url}/scripted`, '--mode', 'fine', '--format', 'text', '--json']));
    expect(fine.crawl_mode).toBe('fine');
    expect(fine.content).toBe('Rendered by a script after load');
    const waited = okJson(
      await extract([
        `${pages.url}/scripted`,
        '--wait-for',
        '#late',
        '--selector',
        '#late',
        '--format',
        'text',
        '--json',
      ]),
    );
    expect(waited.crawl_mode).toBe('fine');
    expect(waited.content).toBe('Rendered by a script after load');
    const browserEcho = okJson(
      await extract([
        echoUrl,
        '--mode',
        'fine',
        '--format',
        'text',
        '--json',
        '--cookie',
        'session=xyz',
        '--user-agent',
        'ReaderBot/3',
      ]),
    );
    expect(browserEcho.content).toBe('cookie=session=xyz\nua=ReaderBot/3');
  }, 120_000);

  it('a wait_for_selector that never matches fails with a 400 naming it', async () => {
    const res = await api({ url: `${pages.url}/scripted`, wait_for_selector: '#never', timeout: 2000 });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/wait_for_selector "#never" matched nothing within 2000 ms/);
  }, 60_000);

  it("the CLI waits out the server's own limit and shows its WEB_EXTRACT_FAILED (naming --wait-for), not a timeout of its own", async () => {
    // The transport's usual wait (1 s here) is shorter than the page's limit: the extract must wait longer.
    const r = await p.cli(['extract', `${pages.url}/scripted`, '--wait-for', '#never', '--timeout', '3000'], {
      env: { FACET_TIMEOUT_MS: '1000' },
      timeout: 60_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/--wait-for "#never" matched nothing within 3000 ms \(code WEB_EXTRACT_FAILED, HTTP 400/);
    expect(r.stderr).not.toMatch(/cannot reach|is the platform running|did not answer/);
  }, 60_000);
});

describe('without a browser', () => {
  it('fine mode says which option needs it and how to install one', async () => {
    const q = await startPlatform({ args: ['--chromium', '/nonexistent/chromium'] });
    try {
      const r = await q.cli(['extract', `${pages.url}/scripted`, '--mode', 'fine']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(
        /crawl_mode "fine" needs a browser: no Chromium at \/nonexistent\/chromium: install one/,
      );
      const w = await q.cli(['extract', `${pages.url}/scripted`, '--wait-for', '#late']);
      // The CLI names its own flag where the server names the request field (issue 41).
      expect(w.stderr).toMatch(/--wait-for needs a browser/);
    } finally {
      q.cleanup();
    }
  }, 60_000);
});
