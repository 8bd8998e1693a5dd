import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { FONT_FILES, cjkFont, installedFonts, mapFamily, pickCjkFont } from '../../../src/server/engines/fonts.js';

/** A Chinese label drawn with these font files, the SVG naming the map's families: its pixels. */
function draw(files: string[], family: string): Uint8Array {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="60" font-family="${family}">` +
    '<rect width="320" height="60" fill="#fff"/><text x="10" y="40" font-size="28" fill="#000">日志级别和传输方式</text></svg>';
  return new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: files } }).render().pixels;
}

const dark = (px: Uint8Array) => px.filter((_, i) => i % 4 === 0 && px[i] < 128).length;
const differing = (a: Uint8Array, b: Uint8Array) =>
  a.filter((_, i) => i % 4 === 0 && Math.abs(a[i] - b[i]) > 100).length;

const dejavu = [FONT_FILES['DejaVu Sans'].regular];
const all = installedFonts();
const noto = pickCjkFont(null, all, /wqy/i);
const wqy = pickCjkFont(null, all, /noto/i);

describe('CJK text in images: whichever CJK font is installed', () => {
  it("takes fontconfig's match for Chinese when it has the glyphs", () => {
    const font = cjkFont();
    expect(font).not.toBeNull();
    expect(mapFamily(font)).toContain(font!.family);
  });

  it.each([
    ['Noto Sans CJK', noto],
    ['WenQuanYi Micro Hei', wqy],
  ])('a Chinese label is drawn with %s alone, not left blank', (_name, font) => {
    expect(font, 'this test needs both fonts-noto-cjk and fonts-wqy-microhei').not.toBeNull();
    // DejaVu alone draws each character as the same empty box.
    const boxes = draw(dejavu, mapFamily(null));
    const drawn = draw([...dejavu, font!.file], mapFamily(font));
    // Nine characters at 28 px: strokes of their own, nowhere near the boxes.
    expect(dark(drawn)).toBeGreaterThan(400);
    expect(differing(drawn, boxes)).toBeGreaterThan(800);
  });

  it('a Latin font that fontconfig falls back to (no CJK glyphs) is passed over', () => {
    const picked = pickCjkFont({ file: dejavu[0], family: 'DejaVu Sans' }, all, /noto/i);
    expect(picked?.file).toBe(wqy?.file);
  });
});
