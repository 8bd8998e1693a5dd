import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compose } from '../../../src/server/engines/illustration/compose.js';
import { renderPng } from '../../../src/server/engines/illustration/render.js';
import { rasterize } from '../../../src/server/engines/illustration/rasterize.js';
import { CAPTION_FAMILY, captionFonts } from '../../../src/server/engines/fonts.js';
import { Resvg } from '@resvg/resvg-js';

const base = {
  prompt: 'A desert sun over <red> dunes & "quotes"',
  width: 320,
  height: 200,
  index: 0,
  keywords: ['sand'],
};

describe('illustration composition', () => {
  it('is deterministic for the same input and changes with the prompt, size and index', () => {
    const a = compose(base);
    expect(compose(base)).toEqual(a);
    expect(a.seed).toMatch(/^[0-9a-f]{16}$/);
    expect(compose({ ...base, prompt: 'A forest' }).seed).not.toBe(a.seed);
    expect(compose({ ...base, index: 1 }).seed).not.toBe(a.seed);
    expect(compose({ ...base, width: 321 }).seed).not.toBe(a.seed);
  });

  it('escapes the caption, records the seed and sizes the SVG as asked', () => {
    const { svg, seed, caption } = compose(base);
    expect(svg).toContain('&lt;red&gt; dunes &amp; &quot;quotes&quot;');
    expect(svg).not.toContain('<red>');
    expect(svg).toContain(`seed=${seed}`);
    expect(svg).toMatch(/^<svg [^>]*width="320" height="200"/);
    expect(caption.join(' ')).toContain('A desert sun');
    expect(svg).toContain('sand');
  });

  it('pulls the palette toward mood words', () => {
    const hue = (s: string) => Number(/hsl\((\d+)/.exec(s)![1]);
    const warm = hue(compose({ ...base, prompt: 'sunset fire' }).palette[0]);
    const cool = hue(compose({ ...base, prompt: 'night ocean' }).palette[0]);
    expect(Math.min(warm, 360 - warm)).toBeLessThan(45);
    expect(Math.abs(cool - 210)).toBeLessThan(20);
  });

  it('wraps a long prompt into at most three caption lines', () => {
    const { caption } = compose({ ...base, prompt: 'word '.repeat(200) });
    expect(caption.length).toBe(3);
    expect(caption[2].endsWith('…')).toBe(true);
  });

  it('keeps the SVG parseable whatever the keywords hold, and a caption cut inside an emoji too', async () => {
    // Keywords come from fetched pages and reference files, which nothing checked for XML.
    const keywords = ['bell\u0007word', 'nul\u0000', 'half\uD800', 'lone\uDC00x', 'non\uFFFE\uFFFF'];
    // A word longer than a caption line is cut; here the cut falls between an emoji's two halves.
    const prompt = 'a'.repeat(20) + '\u{1F600}'.repeat(40);
    const { svg } = compose({ ...base, prompt, keywords });
    expect(svg).not.toMatch(
      /[\u0000-\u0008\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
    expect(svg).toContain('bellword');
    const { png } = await renderPng(svg);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('renders to a PNG of the SVG size', async () => {
    const { png, width, height } = await renderPng(compose(base).svg);
    expect([width, height]).toEqual([320, 200]);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(320);
  });
});

describe('generateIllustrations', () => {
  it('renders several images under one signal (resvg refuses a reused signal) and stops when it aborts', async () => {
    const { mkdtempSync, readdirSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { generateIllustrations } = await import('../../../src/server/engines/illustration/index.js');
    const out = mkdtempSync(path.join(os.tmpdir(), 'facet-ill-'));
    const ac = new AbortController();
    const images = await generateIllustrations({
      prompt: 'three in a row',
      width: 64,
      height: 48,
      count: 3,
      keywords: [],
      outDir: out,
      signal: ac.signal,
    });
    expect(images.map((i) => i.file)).toEqual(['illustration-1.png', 'illustration-2.png', 'illustration-3.png']);
    expect(readdirSync(out)).toHaveLength(6);
    const stop = new AbortController();
    const run = generateIllustrations({
      prompt: 'stopped',
      width: 64,
      height: 48,
      count: 4,
      keywords: [],
      outDir: out,
      signal: stop.signal,
      onImage: () => stop.abort(new Error('canceled')),
    });
    await expect(run).rejects.toThrow('canceled');
  });

  it('says what each image will be as its render starts, and it is the image drawn (result.json is written from it)', async () => {
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { generateIllustrations } = await import('../../../src/server/engines/illustration/index.js');
    const out = mkdtempSync(path.join(os.tmpdir(), 'facet-ill-'));
    const events: string[] = [];
    const planned: unknown[] = [];
    const drawn: unknown[] = [];
    const images = await generateIllustrations({
      prompt: 'planned',
      width: 120,
      height: 72,
      count: 2,
      keywords: ['harbour'],
      outDir: out,
      onPlanned: ({ index, image }) => void (events.push(`planned ${index}`), (planned[index] = image)),
      onImage: ({ index, image }) => void (events.push(`drawn ${index}`), (drawn[index] = image)),
    });
    expect(events).toEqual(['planned 0', 'drawn 0', 'planned 1', 'drawn 1']);
    expect(planned).toEqual(images);
    expect(drawn).toEqual(images);
    expect(images.map((i) => [i.width, i.height])).toEqual([
      [120, 72],
      [120, 72],
    ]);
  });

  it("counts each SVG's tokens beside its render when asked (the metering count), and not otherwise", async () => {
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { generateIllustrations } = await import('../../../src/server/engines/illustration/index.js');
    const { countTokens } = await import('../../../src/server/engines/gateway/tokenizer.js');
    const out = mkdtempSync(path.join(os.tmpdir(), 'facet-ill-'));
    const seen: Array<{ svg: string; svgTokens?: number }> = [];
    await generateIllustrations({
      prompt: 'counted',
      width: 96,
      height: 64,
      count: 2,
      keywords: ['sea'],
      outDir: out,
      countTokens: true,
      onImage: ({ svg, svgTokens }) => void seen.push({ svg, svgTokens }),
    });
    expect(seen).toHaveLength(2);
    for (const { svg, svgTokens } of seen) expect(svgTokens).toBe(await countTokens(svg));
    const plain: Array<number | undefined> = [];
    await generateIllustrations({
      prompt: 'not counted',
      width: 96,
      height: 64,
      count: 1,
      keywords: [],
      outDir: out,
      onImage: ({ svgTokens }) => void plain.push(svgTokens),
    });
    expect(plain).toEqual([undefined]);
  });
});

describe('caption fonts', () => {
  // Debian's fonts-wqy-microhei, which .ci/run installs.
  const cjkInstalled = existsSync('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc');

  it.skipIf(!cjkInstalled)("draws CJK captions with the fallback font, not DejaVu's empty boxes", () => {
    const svg = compose({ ...base, prompt: '灯台の光 lighthouse' }).svg;
    const withFallback = rasterize(svg).png;
    const dejavuOnly = new Resvg(svg, {
      font: {
        loadSystemFonts: false,
        fontFiles: captionFonts().filter((f) => /DejaVu/.test(f)),
        defaultFontFamily: CAPTION_FAMILY,
      },
    })
      .render()
      .asPng();
    expect(Buffer.from(withFallback).equals(Buffer.from(dejavuOnly))).toBe(false);
  });
});
