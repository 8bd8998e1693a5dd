import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import fc from 'fast-check';
import {
  normalizeTree,
  renderBoth,
  renderSvg,
  PNG_LIMITS,
  PngTooLarge,
  type MindNode,
} from '../../../../src/server/engines/mindmap/index.js';
import { pngScale } from '../../../../src/server/engines/mindmap/raster.js';
import { renderMindmap } from '../../../../src/server/engines/mindmap/render-job.js';
import { measureTree } from '../../../../src/server/engines/mindmap/layout-types.js';
import { textWidth } from '../../../../src/server/engines/mindmap/measure.js';
import { mapFontList } from '../../../../src/server/engines/fonts.js';
import { MINDMAP_LAYOUTS as LAYOUTS } from '../../../../src/contract/mindmap.js';

const leaf = (text: string): MindNode => ({ text, children: [] });
const node = (text: string, children: MindNode[]): MindNode => ({ text, children });

const small = node('Renewable energy', [
  node('Solar', [leaf('Panels got cheaper'), leaf('Rooftops')]),
  node('Wind', [leaf('Offshore')]),
  leaf('Storage'),
]);

const deep = (() => {
  let n = leaf('Level 6 leaf with a few words');
  for (let d = 5; d >= 1; d--) n = node(`Level ${d} node`, [n, leaf(`Sibling at level ${d + 1}`)]);
  return node('Deep root', [n, node('Other branch', [node('Nested', [node('More nested', [leaf('Bottom')])])])]);
})();

const wide = node(
  'Wide root',
  Array.from({ length: 9 }, (_, i) =>
    node(
      `Branch ${i + 1}`,
      Array.from({ length: 1 + ((i * 5) % 7) }, (_, j) =>
        leaf(`Point ${i + 1}.${j + 1} ${'detail '.repeat(j % 3)}`.trim()),
      ),
    ),
  ),
);

const cjkLong = node(
  '可再生能源转型的主要驱动因素与挑战 — a long bilingual root label that must wrap over several lines',
  [
    node('太阳能', [
      leaf('光伏组件成本在2010年至2020年间下降了约百分之九十'),
      leaf('Supercalifragilisticexpialidociousandevenlongerwordwithoutanyspaces'),
    ]),
    node('A branch whose label is far too long to fit on one line of a node box, so it wraps', [
      leaf('短'),
      leaf('Mixed 中文 and English words in one label that wraps'),
    ]),
    node('风能', [node('海上风电', [leaf('容量系数超过百分之五十'), leaf('成本持续下降')])]),
    leaf('储能'),
  ],
);

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
      for (const line of n.lines)
        expect(textWidth(line, n.style.size, n.style.bold)).toBeLessThanOrEqual(n.w - 2 * n.style.padX);
      expect(n.lines.join('').replace(/\s/g, '')).not.toBe('');
    }
    // The long word without spaces is cut by characters, not left overflowing.
    const word = all.find((n) => n.lines.join('').startsWith('Supercalifragilistic'))!;
    expect(word.lines.length).toBeGreaterThan(1);
  });

  it('holds every line to the width it was measured at, inside its box, whatever font a viewer has', () => {
    // A browser without the measured font (DejaVu Sans) sets labels in a wider or narrower one:
    // each tspan's textLength is its measured width, and that width fits the box it was sized for.
    for (const layout of LAYOUTS) {
      const { svg } = renderSvg(cjkLong, layout);
      const groups = [...svg.matchAll(/<g id="n\d+"><rect [^>]*? width="([\d.]+)"[^>]*>(<text[\s\S]*?<\/text>)<\/g>/g)];
      expect(groups.length).toBe(count(cjkLong));
      for (const [, boxWidth, text] of groups) {
        const size = Number(/font-size="([\d.]+)"/.exec(text)![1]);
        const bold = text.includes('font-weight="bold"');
        const spans = [
          ...text.matchAll(/<tspan [^>]*?(?:textLength="([\d.]+)" lengthAdjust="spacingAndGlyphs")?>([^<]*)<\/tspan>/g),
        ];
        expect(spans.length).toBeGreaterThan(0);
        for (const [, length, line] of spans) {
          const unescaped = line.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
          expect(length, `${layout}: "${unescaped}" has no textLength`).toBeDefined();
          expect(Number(length)).toBeCloseTo(textWidth(unescaped, size, bold), 0);
          expect(Number(length)).toBeLessThanOrEqual(Number(boxWidth));
        }
      }
    }
  });

  it('each layout draws a different picture of the same tree', () => {
    const svgs = new Set(LAYOUTS.map((l) => renderSvg(small, l).svg));
    expect(svgs.size).toBe(LAYOUTS.length);
  });

  it('rasterises to a PNG of the SVG size', () => {
    const { drawn, png } = renderBoth(small, 'TIMELINE', true);
    const buf = Buffer.from(png!);
    expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(buf.readUInt32BE(16)).toBe(drawn.width);
    expect(buf.readUInt32BE(20)).toBe(drawn.height);
  });

  it('draws nothing that needs a layer of its own (resvg 0.34 aborts on such a layer off the canvas), and no NaN', () => {
    for (const layout of LAYOUTS) {
      for (const tree of Object.values(TREES)) {
        const { svg } = renderSvg(tree, layout);
        expect(svg).not.toMatch(/<(marker|clipPath|mask|filter|pattern|use|image)\b|marker-end|opacity=/);
        expect(svg).not.toMatch(/NaN|Infinity/);
      }
    }
  });

  it('draws any tree in any layout with finite, non-degenerate geometry and no layer (property)', () => {
    const label = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', ' ', '0', '太阳能 Solar', 'x'.repeat(200), 'Ünïcödé — ∑ 🙂'),
    );
    const sub: fc.Memo<MindNode> = fc.memo((n) =>
      fc.record({ text: label, children: n <= 1 ? fc.constant([]) : fc.array(sub(n - 1), { maxLength: 5 }) }),
    );
    const tree = sub(5);
    fc.assert(
      fc.property(tree, fc.constantFrom(...LAYOUTS), (t, layout) => {
        const drawn = renderSvg(normalizeTree(t), layout);
        expect(
          Number.isInteger(drawn.width) && drawn.width > 0 && Number.isInteger(drawn.height) && drawn.height > 0,
        ).toBe(true);
        expect(drawn.svg).not.toMatch(/NaN|Infinity|<(marker|clipPath|mask|filter|pattern|use|image)\b|opacity=/);
        for (const b of drawn.boxes)
          expect(
            b.w > 0 && b.h > 0 && b.x >= 0 && b.y >= 0 && b.x + b.w <= drawn.width && b.y + b.h <= drawn.height,
          ).toBe(true);
      }),
      { numRuns: 150, seed: 32 },
    );
  });
});

/** RGBA pixels of a PNG, decoded by resvg itself (the PNG as the only image of an SVG of its size). */
function pixelsOf(png: Uint8Array): { width: number; height: number; rgba: Buffer } {
  const buf = Buffer.from(png);
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${buf.toString('base64')}"/></svg>`;
  return { width, height, rgba: new Resvg(svg).render().pixels };
}

/** A map of `nodes` nodes: `branches` first-level branches sharing the details between them. */
function mapOf(nodes: number, branches: number): MindNode {
  const root = node(
    'A map of many nodes',
    Array.from({ length: branches }, (_, b) => node(`Branch ${b + 1}`, [])),
  );
  for (let i = 0; i < nodes - 1 - branches; i++)
    root.children[i % branches].children.push(leaf(`Detail point ${i} about something`));
  return root;
}

describe('the PNG', () => {
  it('sets every label with resvg, from the files it was measured with: inside its box, never outside one', () => {
    const { drawn, png } = renderBoth(cjkLong, 'MIND_MAP', true);
    const ours = pixelsOf(png!);
    expect([ours.width, ours.height]).toEqual([drawn.width, drawn.height]);
    // The same drawing without its text: what differs is the labels' ink.
    const bare = new Resvg(drawn.svg.replace(/<text[^]*?<\/text>/g, ''), {
      font: { loadSystemFonts: false, fontFiles: mapFontList() },
      shapeRendering: 2,
    }).render().pixels;
    const inked = new Map<string, number>();
    let outside = 0;
    for (let y = 0; y < drawn.height; y++)
      for (let x = 0; x < drawn.width; x++) {
        const at = (y * drawn.width + x) * 4;
        if (
          Math.abs(ours.rgba[at] - bare[at]) +
            Math.abs(ours.rgba[at + 1] - bare[at + 1]) +
            Math.abs(ours.rgba[at + 2] - bare[at + 2]) <
          30
        )
          continue;
        const box = drawn.boxes.find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h);
        if (box) inked.set(box.id, (inked.get(box.id) ?? 0) + 1);
        else outside++;
      }
    expect(outside).toBe(0);
    // Every node's label is drawn, the CJK ones too (WenQuanYi Micro Hei, not empty boxes).
    for (const b of drawn.boxes) expect(inked.get(b.id) ?? 0).toBeGreaterThan(20);
  });

  it('gives identical bytes for identical input', () => {
    const first = Buffer.from(renderBoth(cjkLong, 'MIND_MAP', true).png!);
    renderBoth(wide, 'ORGANIZATION_STRUCTURE', true);
    expect(Buffer.from(renderBoth(cjkLong, 'MIND_MAP', true).png!).equals(first)).toBe(true);
  });

  it('keeps a PNG within its pixel budget: drawn smaller past it, refused when it would be unreadably small', () => {
    const max = PNG_LIMITS.maxPixels;
    expect(pngScale(1000, 1000)).toBe(1);
    expect(pngScale(max / 1000, 1000)).toBe(1);
    const s = pngScale(max / 1000 + 1, 1000);
    expect(s).toBeLessThan(1);
    expect(Math.ceil((max / 1000 + 1) * s) * Math.ceil(1000 * s)).toBeLessThanOrEqual(max);
    const smallest = Math.sqrt(max) / PNG_LIMITS.minScale;
    expect(pngScale(Math.floor(smallest), Math.floor(smallest))).toBeGreaterThanOrEqual(PNG_LIMITS.minScale);
    expect(() => pngScale(Math.ceil(smallest) + 2, Math.ceil(smallest) + 2)).toThrow(PngTooLarge);
  });

  it('draws 400-node maps in FISHBONE and TIMELINE (they aborted the process inside resvg), or refuses one too large to read', async () => {
    for (const layout of ['FISHBONE', 'TIMELINE'] as const) {
      const out = await renderMindmap({ tree: mapOf(400, 7), layout, png: true });
      expect(out.pngRefused).toBeUndefined();
      expect(Buffer.from(out.png!).readUInt32BE(16)).toBe(out.width);
    }
    // One branch of 398 details is a fishbone bone 22,000 pixels long: no PNG, a reason instead.
    const huge = await renderMindmap({ tree: mapOf(400, 1), layout: 'FISHBONE', png: true });
    expect(huge.png).toBeNull();
    expect(huge.pngRefused).toMatch(/megapixels.*format=svg/);
    expect(huge.svg).toMatch(/^<svg /);
  });
});
