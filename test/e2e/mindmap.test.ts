import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { ok, okJson, startPlatform, tempDir, type Platform } from '../helpers/platform.js';

/**
 * facet mindmap against a real `facet serve`: a LiveDoc with documents, the map drawn from them by
 * the local grounded model, written as PNG and SVG, its signed page and the other layouts, the
 * limits, and the model errors from an upstream on 127.0.0.1.
 */
let p: Platform;
let up: FakeUpstream;
let withUpstream: Platform;
let dir: string;
let livedoc: string;

const SOLAR = `# Solar power

Photovoltaic panel costs fell by about 90% between 2010 and 2020. Rooftop systems let households sell surplus power back to the grid.

## Storage

Batteries smooth the daily peak of solar output. Common storage options are lithium-ion batteries, pumped hydro, flow batteries and green hydrogen.
`;
const WIND = `# Wind power

Offshore wind turbines reach capacity factors above 50%. Onshore wind is now the cheapest new electricity in many regions.
`;

const isPng = (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

async function v2(platform: Platform, pathname: string, body?: unknown, key = platform.boot.api_key) {
  const res = await platform.fetch(pathname, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  dir = tempDir('mindmap');
  up = await startFakeUpstream();
  [p, withUpstream] = await Promise.all([
    startPlatform(),
    startPlatform({
      args: [
        '--upstream-openai-base-url',
        up.openaiBase,
        '--default-model',
        'aster-mini',
        '--upstream-timeout',
        '1000',
      ],
      env: { FACET_UPSTREAM_OPENAI_KEY: 'sk-test' },
    }),
  ]);
  livedoc = ok(await p.cli(['livedocs', 'create', 'Energy'])).stdout.trim();
  writeFileSync(path.join(dir, 'solar.md'), SOLAR);
  writeFileSync(path.join(dir, 'wind.md'), WIND);
  ok(
    await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      livedoc,
      '--title',
      'Solar power',
      '--file',
      path.join(dir, 'solar.md'),
    ]),
  );
  ok(
    await p.cli([
      'livedocs',
      'resources',
      'add-doc',
      livedoc,
      '--title',
      'Wind power',
      '--file',
      path.join(dir, 'wind.md'),
    ]),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all([p?.stop(), withUpstream?.stop()]);
  await up?.close();
});

describe('facet mindmap', () => {
  it('draws a LiveDoc as a PNG, prints its resource id, LiveDoc and URL, and keeps it as a mindmap resource', async () => {
    const out = path.join(dir, 'map.png');
    // Piped, the new resource id alone (the create verbs' rule); --json gives LiveDoc and URL too.
    const r = ok(
      await p.cli(['mindmap', 'solar power, storage and wind', '--livedoc', livedoc, '--out', out, '--json']),
    );
    const data = JSON.parse(r.stdout);
    const id = data.resource_id;
    expect(id).toMatch(/^res_[0-9a-z]+$/);
    expect(data.status).toBe('COMPLETED');
    expect(data.livedoc_short_id).toBe(livedoc);
    expect(data.mindmap_url).toMatch(new RegExp(`^${p.url}/mindmaps/${id}\\?expires=\\d+&sig=`));
    const png = readFileSync(out);
    expect(isPng(png)).toBe(true);
    expect(png.readUInt32BE(16)).toBeGreaterThan(300);

    // Stored in the LiveDoc: its Markdown is the resource's content, drawn from the documents.
    const content = await v2(p, `/v2/livedocs/${livedoc}/resources/${id}/content`);
    expect(content.status).toBe(200);
    expect(content.body.data.type).toBe('mindmap');
    expect(content.body.data.content).toMatch(/^# /);
    expect(content.body.data.content).toContain('Batteries smooth the daily peak of solar output');
    expect(content.body.data.content).toMatch(/- Common storage options\n\s+- lithium-ion batteries/);
    const list = await v2(p, `/v2/livedocs/${livedoc}/resources?resource_types=mindmap`);
    expect(list.body.data.items.map((x: { id: string }) => x.id)).toContain(id);
  });

  it('writes the SVG of the layout asked for, with measured text and no foreignObject; --json prints the data', async () => {
    const out = path.join(dir, 'map.svg');
    const data = okJson(
      await p.cli(['mindmap', 'wind power', '--livedoc', livedoc, '--layout', 'FISHBONE', '--out', out, '--json']),
    );
    expect(data.status).toBe('COMPLETED');
    expect(data.livedoc_short_id).toBe(livedoc);
    expect(data.message).toMatch(/FISHBONE/);
    const svg = readFileSync(out, 'utf8');
    expect(svg).toBe(data.svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toMatch(/foreignObject/i);
    expect(svg).toContain('<tspan');
    expect(svg).toContain('>Wind power</tspan>');
  });

  it('serves the map page by its signed URL, with the other layouts one click away, SVG and PNG; a bad signature or another id is refused', async () => {
    const data = okJson(await p.cli(['mindmap', 'storage', '--livedoc', livedoc, '--json']));
    const page = await fetch(data.mindmap_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // Issue 38: the same CSP and framing headers as every other viewer page.
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/foreignObject|<script|https?:\/\/(?!www\.w3\.org)/i);
    const sig = new URL(data.mindmap_url).searchParams.get('sig')!;
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    const layouts = links.filter((l) => /[?&]layout=/.test(l) && !/format=/.test(l));
    expect(layouts.map((l) => new URL(l, p.url).searchParams.get('layout')).sort()).toEqual([
      'CATALOG_ORGANIZATION',
      'FISHBONE',
      'LOGICAL_STRUCTURE',
      'MIND_MAP',
      'ORGANIZATION_STRUCTURE',
      'TIMELINE',
    ]);
    for (const l of layouts) expect(new URL(l, p.url).searchParams.get('sig')).toBe(sig);

    // One click: the timeline page, then its SVG, which is byte for byte what the API draws for TIMELINE.
    const timeline = layouts.find((l) => l.includes('TIMELINE'))!;
    expect((await fetch(new URL(timeline, p.url))).status).toBe(200);
    const svgUrl = new URL(data.mindmap_url);
    svgUrl.searchParams.set('format', 'svg');
    const svg = await fetch(svgUrl);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(await svg.text()).toBe(data.svg);
    const pngUrl = new URL(data.mindmap_url);
    pngUrl.searchParams.set('format', 'png');
    pngUrl.searchParams.set('layout', 'ORGANIZATION_STRUCTURE');
    const png = await fetch(pngUrl);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(isPng(Buffer.from(await png.arrayBuffer()))).toBe(true);

    // A tampered signature, and this signature on another mindmap's id: 403, saying nothing of the map.
    const bad = new URL(data.mindmap_url);
    bad.searchParams.set('sig', sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA'));
    const badRes = await fetch(bad);
    expect(badRes.status).toBe(403);
    expect(await badRes.text()).not.toContain('<svg');
    const first = okJson(await p.cli(['mindmap', 'wind', '--livedoc', livedoc, '--json']));
    const swapped = new URL(first.mindmap_url);
    swapped.searchParams.set('expires', new URL(data.mindmap_url).searchParams.get('expires')!);
    swapped.searchParams.set('sig', sig);
    expect((await fetch(swapped)).status).toBe(403);
    const missing = await fetch(`${p.url}/mindmaps/res_nothere?expires=1&sig=x`);
    expect(missing.status).toBe(403);
  });

  it("refuses another user's LiveDoc and their map page, as LIVEDOC_NOT_FOUND and 403", async () => {
    ok(await p.cli(['serve', 'users', 'create', 'mallory', '--data-dir', p.dataDir]));
    const token = ok(await p.cli(['serve', 'token', 'mallory', '--data-dir', p.dataDir])).stdout.trim();
    const key = ok(await p.cli(['keys', 'create'], { env: { FACET_ACCESS_TOKEN: token } })).stdout.trim();
    const r = await p.cli(['mindmap', 'solar', '--livedoc', livedoc], { env: { FACET_API_KEY: key } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/LIVEDOC_NOT_FOUND/);
    // Mallory's own map: a new LiveDoc is made for it; its signature opens nothing of the owner's.
    const mine = okJson(
      await p.cli(['mindmap', 'pricing, onboarding and churn', '--json'], { env: { FACET_API_KEY: key } }),
    );
    expect(mine.livedoc_short_id).not.toBe(livedoc);
    expect(mine.svg).toContain('>Pricing</tspan>');
    const owners = okJson(await p.cli(['livedocs', 'resources', 'list', livedoc, '--json']));
    const ownerMap =
      owners.items?.find?.((x: { resource_type: string }) => x.resource_type === 'mindmap') ??
      owners.find((x: { resource_type: string }) => x.resource_type === 'mindmap');
    const u = new URL(mine.mindmap_url);
    u.pathname = `/mindmaps/${ownerMap.id}`;
    expect((await fetch(u)).status).toBe(403);
  });

  it('holds the limits: a query of 2000 characters is drawn, 2001 is a 400; a bad layout is a 400; an unknown LiveDoc LIVEDOC_NOT_FOUND', async () => {
    const at = await v2(p, '/v2/mindmap', { query: 'wind '.repeat(400), livedoc_short_id: livedoc });
    expect(at.status).toBe(200);
    expect(at.body.status).toBe('ok');
    expect(at.body.data.status).toBe('COMPLETED');
    const cjk = await v2(p, '/v2/mindmap', { query: '风'.repeat(2000), livedoc_short_id: livedoc });
    expect(cjk.status).toBe(200);
    const past = await v2(p, '/v2/mindmap', { query: 'x'.repeat(2001), livedoc_short_id: livedoc });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ status: 'error', code: expect.any(String), request_id: expect.any(String) });
    expect(past.body.message).toMatch(/2000/);
    const layout = await v2(p, '/v2/mindmap', { query: 'wind', layout: 'SPIDER' });
    expect(layout.status).toBe(400);
    expect(layout.body.status).toBe('error');
    expect(layout.body.message).toMatch(/layout/);
    const none = await v2(p, '/v2/mindmap', { query: 'wind', livedoc_short_id: 'ld_doesnotexist' });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('LIVEDOC_NOT_FOUND');
    const cli = await p.cli(['mindmap', 'x'.repeat(2001)]);
    expect(cli.exitCode).toBe(2);
    const ext = await p.cli(['mindmap', 'wind', '--out', path.join(dir, 'map.jpg')]);
    expect(ext.exitCode).toBe(2);
    expect(ext.stderr).toMatch(/\.svg or \.png/);
  });

  it('uses a configured upstream model, and answers 503 LLM_SERVICE_UNAVAILABLE and 504 LLM_REQUEST_TIMEOUT when it fails or is too slow', async () => {
    up.script({
      text: '```markdown\n# Upstream topic\n## Branch one\n- leaf a\n- leaf b\n## Branch two\n- leaf c\n```',
    });
    const good = await v2(withUpstream, '/v2/mindmap', { query: 'anything', layout: 'TIMELINE' });
    expect(good.status).toBe(200);
    expect(good.body.data.svg).toContain('>Upstream topic</tspan>');
    expect(good.body.data.svg).toContain('>Branch two</tspan>');
    const sent = up.received.at(-1)!;
    expect(sent.body.model).toBe('aster-mini');
    expect(JSON.stringify(sent.body.messages)).toContain('Markdown outline');
    // Metered like every model call: the upstream's usage, on the caller's key.
    const usage = okJson(await withUpstream.cli(['admin', 'usage', '--json']));
    expect(usage.totals).toMatchObject({ calls: 1, input_tokens: 33, output_tokens: 9 });
    expect(usage.keys[0].models.map((m: { model: string }) => m.model)).toEqual(['aster-mini']);

    up.script({ status: 500, error: 'model crashed' });
    const failed = await v2(withUpstream, '/v2/mindmap', { query: 'anything' });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ status: 'error', code: 'LLM_SERVICE_UNAVAILABLE' });

    up.script({ headersDelayMs: 2500, text: '# late' });
    const slow = await v2(withUpstream, '/v2/mindmap', { query: 'anything' });
    expect(slow.status).toBe(504);
    expect(slow.body).toMatchObject({ status: 'error', code: 'LLM_REQUEST_TIMEOUT' });

    // Failed calls leave no LiveDoc behind.
    const docs = await v2(withUpstream, '/v2/livedocs?size=100');
    expect(docs.body.data.total).toBe(1);

    // The CLI reports the code and exits non-zero.
    up.script({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const cli = await withUpstream.cli(['mindmap', 'anything']);
    expect(cli.exitCode).not.toBe(0);
    expect(cli.stderr).toMatch(/LLM_SERVICE_UNAVAILABLE/);
  });
  it('answers a query with no words with a 400 that says why, not a 502', async () => {
    const zero = await v2(p, '/v2/mindmap', { query: '0' });
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ status: 'error', code: 'INVALID_PARAMETER' });
    expect(zero.body.message).toMatch(/no word to map/);
    // A query with a word is drawn, even with nothing in the LiveDoc about it.
    expect((await v2(p, '/v2/mindmap', { query: '0 tides' })).status).toBe(200);
  });

  it('draws a 400-node map as FISHBONE and TIMELINE PNG through its link (resvg aborted the server there), or refuses it with a 422; the server stays up', async () => {
    // A platform of its own: the upstream test above may leave scripted failures queued on the shared one.
    const big = await startFakeUpstream();
    const platform = await startPlatform({
      args: ['--upstream-openai-base-url', big.openaiBase, '--default-model', 'aster-mini'],
      env: { FACET_UPSTREAM_OPENAI_KEY: 'sk-test' },
    });
    try {
      await drawLarge(big, platform);
    } finally {
      await platform.stop();
      await big.close();
    }
  }, 120_000);
});

/** The model's outline of a 400-node map: `branches` branches sharing 399 - branches details. */
function largeOutline(branches: number): string {
  const lines = ['# A map of four hundred nodes'];
  for (let b = 0; b < branches; b++) {
    lines.push(`## Branch ${b + 1}`);
    for (let i = b; i < 399 - branches; i += branches) lines.push(`- Detail point ${i} about something`);
  }
  return lines.join('\n');
}

async function drawLarge(big: FakeUpstream, platform: Platform): Promise<void> {
  const health = async () => (await platform.fetch('/healthz')).status;
  for (const branches of [7, 1]) {
    big.script({ text: largeOutline(branches) });
    const made = await v2(platform, '/v2/mindmap', { query: 'a large map', layout: 'FISHBONE' });
    expect(made.status).toBe(200);
    expect(made.body.data.message).toMatch(/^Mindmap of 400 nodes/);
    for (const layout of ['FISHBONE', 'TIMELINE']) {
      const url = new URL(made.body.data.mindmap_url);
      url.searchParams.set('layout', layout);
      url.searchParams.set('format', 'png');
      const res = await fetch(url);
      const body = Buffer.from(await res.arrayBuffer());
      if (branches === 1 && layout === 'FISHBONE') {
        // One bone of 398 details is 11,527x22,048 pixels: too large for a readable PNG.
        expect(res.status).toBe(422);
        expect(JSON.parse(body.toString()).detail[0]).toMatchObject({
          loc: ['query', 'format'],
          msg: expect.stringMatching(/megapixels.*format=svg/),
        });
      } else {
        expect(res.status).toBe(200);
        expect(isPng(body)).toBe(true);
      }
      expect(await health()).toBe(200);
    }
  }
}
