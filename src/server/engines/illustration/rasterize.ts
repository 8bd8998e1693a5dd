import { Resvg } from '@resvg/resvg-js';
import { CAPTION_FAMILY, captionFonts } from './fonts.js';

export interface Raster {
  png: Uint8Array;
  width: number;
  height: number;
  fonts: number;
}

/**
 * SVG to PNG at the SVG's own size, synchronously: parsing, drawing and PNG encoding (the costly
 * part at 2048x2048) all happen in the calling thread, which is a CPU worker (see render.ts). Text
 * uses the installed fonts (none: the caption is left out).
 */
export function rasterize(svg: string): Raster {
  const fonts = captionFonts();
  const image = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: CAPTION_FAMILY, sansSerifFamily: CAPTION_FAMILY },
    shapeRendering: 2,
    textRendering: 1,
  }).render();
  return { png: image.asPng(), width: image.width, height: image.height, fonts: fonts.length };
}
