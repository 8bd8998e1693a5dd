import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { renderBoth, renderSvg, LAYOUTS, type MindNode } from '../../../../src/server/engines/mindmap/index.js';
import { measureTree } from '../../../../src/server/engines/mindmap/layout-types.js';
import { renderFontFiles, textWidth, PRIMARY_FAMILY } from '../../../../src/server/engines/mindmap/fonts.js';

const leaf = (text: string): MindNode => ({ text, children: [] });
const node = (text: string, children: MindNode[]): MindNode => ({ text, children });

const small = node('Renewable energy', [node('Solar', [leaf('Panels got cheaper'), leaf('Rooftops')]), node('Wind', [leaf('Offshore')]), leaf('Storage')]);

const deep = (() => {
  let n = leaf('Level 6 leaf with a few words');
  for (let d = 5; d >= 1; d--) n = node(`Level ${d} node`, [n, leaf(`Sibling at level ${d + 1}`)]);
  return node('Deep root', [n, node('Other branch', [node('Nested', [node('More nested', [leaf('Bottom')])])])]);
})();

const wide = node(
  'Wide root',
  Array.from({ length: 9 }, (_, i) => node(`Branch ${i + 1}`, Array.from({ length: 1 + ((i * 5) % 7) }, (_, j) => leaf(`Point ${i + 1}.${j + 1} ${'detail '.repeat(j % 3)}`.trim())))),
);

const cjkLong = node('可再生能源转型的主要驱动因素与挑战 — a long bilingual root label that must wrap over several lines', [
  node('太阳能', [leaf('光伏组件成本在2010年至2020年间下降了约百分之九十'), leaf('Supercalifragilisticexpialidociousandevenlongerwordwithoutanyspaces')]),
  node('A branch whose label is far too long to fit on one line of a node box, so it wraps', [leaf('短'), leaf('Mixed 中文 and English words in one label that wraps')]),
  node('风能', [node('海上风电', [leaf('容量系数超过百分之五十'), leaf('成本持续下降')])]),
  leaf('储能'),
]);

const TREES: Record<string, MindNode> = { small, deep, wide, 'cjk-long': cjkLong, lone: leaf('Only a root') };

function overlapping(boxes: Array<{ id: string; x: number; y: number; w: number; h: number }>): string[] {
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) found.push(`${a.id}/${b.id}`);
    }
  return found;
}

const count = (t: MindNode): number => 1 + t.children.reduce((s, c) => s + count(c), 0);

describe('mindmap layouts', () => {
  for (const layout of LAYOUTS) {
    for (const [name, tree] of Object.entries(TREES)) {
      it(`${layout} / ${name}: no two node boxes overlap, every node is drawn inside the picture`, () => {
        const drawn = renderSvg(tree, layout);
        expect(drawn.boxes).toHaveLength(count(tree));
        expect(overlapping(drawn.boxes)).toEqual([]);
        for (const b of drawn.boxes) {
          expect(b.x).toBeGreaterThanOrEqual(0);
          expect(b.y).toBeGreaterThanOrEqual(0);
          expect(b.x + b.w).toBeLessThanOrEqual(drawn.width);
          expect(b.y + b.h).toBeLessThanOrEqual(drawn.height);
        }
      });

      it(`${layout} / ${name}: the same tree gives the same bytes, drawn with text and tspan only`, () => {
        const a = renderSvg(tree, layout).svg;
        // A structurally equal copy, drawn after other work, must still give identical bytes.
        renderSvg(wide, 'FISHBONE');
        const b = renderSvg(JSON.parse(JSON.stringify(tree)) as MindNode, layout).svg;
        expect(b).toBe(a);
        expect(a).not.toMatch(/foreignObject/i);
        expect(a).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        expect(a.match(/<g id="n\d+">/g)).toHaveLength(count(tree));
      });
    }
  }

  it('wraps labels with explicit lines that each fit their box', () => {
    const root = measureTree(cjkLong);
    const all = [root];
    for (let i = 0; i < all.length; i++) all.push(...all[i].children);
    const wrapped = all.filter((n) => n.lines.length > 1);
    expect(wrapped.length).toBeGreaterThan(2);
    for (const n of all) {
      for (const line of n.lines) expect(textWidth(line, n.style.size, n.style.bold)).toBeLessThanOrEqual(n.w - 2 * n.style.padX);
      expect(n.lines.join('').replace(/\s/g, '')).not.toBe('');
    }
    // The long word without spaces is cut by characters, not left overflowing.
    const word = all.find((n) => n.lines.join('').startsWith('Supercalifragilistic'))!;
    expect(word.lines.length).toBeGreaterThan(1);
  });

  it('each layout draws a different picture of the same tree', () => {
    const svgs = new Set(LAYOUTS.map((l) => renderSvg(small, l).svg));
    expect(svgs.size).toBe(LAYOUTS.length);
  });

  it('rasterises to a PNG of the SVG size', async () => {
    const { drawn, png } = await renderBoth(small, 'TIMELINE', true);
    const buf = Buffer.from(png!);
    expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(buf.readUInt32BE(16)).toBe(drawn.width);
    expect(buf.readUInt32BE(20)).toBe(drawn.height);
  });
});

/** RGBA pixels of a PNG whose rows are unfiltered or filtered by resvg (we only need ours: filter 0). */
function pixelsOf(png: Buffer): { width: number; height: number; rgba: Buffer } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(0);
    raw.copy(rgba, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  }
  return { width, height, rgba };
}

describe('the PNG', () => {
  it('shows the same picture as the SVG with its real text (set by resvg from the same font files)', async () => {
    const { drawSvg } = await import('../../../../src/server/engines/mindmap/svg.js');
    const { mindMapLayout } = await import('../../../../src/server/engines/mindmap/layouts/horizontal.js');
    const options = { font: { loadSystemFonts: false, fontFiles: renderFontFiles(), defaultFontFamily: PRIMARY_FAMILY }, shapeRendering: 2 as const };
    const meanDiff = (a: Uint8Array, b: Uint8Array) => {
      let sum = 0;
      for (let i = 0; i < a.length; i += 4) sum += Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
      return sum / (a.length / 4) / 3;
    };
    const { drawn, png } = await renderBoth(cjkLong, 'MIND_MAP', true);
    const ours = pixelsOf(Buffer.from(png!));
    const reference = new Resvg(drawn.svg, options).render();
    expect([ours.width, ours.height]).toEqual([reference.width, reference.height]);
    const unlabelled = new Resvg(drawSvg(mindMapLayout(measureTree(cjkLong)), cjkLong.text, { labels: 'none' }).svg, options).render();
    // Without labels the picture is far from the reference; ours differs from it only at the glyphs'
    // anti-aliased edges (baselines snapped to whole pixels, positions to a quarter pixel).
    const bare = meanDiff(unlabelled.pixels, reference.pixels);
    expect(bare).toBeGreaterThan(3);
    expect(meanDiff(ours.rgba, reference.pixels)).toBeLessThan(bare * 0.5);
  });

  it('draws two maps at once exactly as it draws each alone (row buffers are not shared)', async () => {
    const alone = [Buffer.from((await renderBoth(wide, 'LOGICAL_STRUCTURE', true)).png!), Buffer.from((await renderBoth(deep, 'MIND_MAP', true)).png!)];
    const together = await Promise.all([renderBoth(wide, 'LOGICAL_STRUCTURE', true), renderBoth(deep, 'MIND_MAP', true)]);
    expect(Buffer.from(together[0].png!).equals(alone[0])).toBe(true);
    expect(Buffer.from(together[1].png!).equals(alone[1])).toBe(true);
  });

  it('gives identical bytes for identical input, whatever the glyph cache held before', async () => {
    const first = Buffer.from((await renderBoth(cjkLong, 'MIND_MAP', true)).png!);
    await renderBoth(wide, 'ORGANIZATION_STRUCTURE', true);
    await renderBoth(deep, 'TIMELINE', true);
    expect(Buffer.from((await renderBoth(cjkLong, 'MIND_MAP', true)).png!).equals(first)).toBe(true);
  });
});
