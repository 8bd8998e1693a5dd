import { Resvg } from '@resvg/resvg-js';
import { CAPTION_FAMILY, captionFonts } from './fonts.js';

/** SVG to PNG at the SVG's own size; text uses the installed fonts (none: text is left out). */
export function renderPng(svg: string): { png: Buffer; width: number; height: number; fonts: number } {
  const fonts = captionFonts();
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: CAPTION_FAMILY, sansSerifFamily: CAPTION_FAMILY },
    shapeRendering: 2,
    textRendering: 1,
  });
  const image = resvg.render();
  return { png: image.asPng(), width: image.width, height: image.height, fonts: fonts.length };
}
