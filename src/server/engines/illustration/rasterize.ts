import { Resvg } from '@resvg/resvg-js';
import { CAPTION_FAMILY, captionFonts } from '../fonts.js';

export interface Raster {
  png: Uint8Array;
  width: number;
  height: number;
  fonts: number;
}

export interface RasterOptions {
  /** Font files for the text (default: the caption fonts). None: text is left out. */
  fonts?: string[];
  /** The family for text that names none, or one that is not among the files. */
  family?: string;
  /** Drawn at this fraction of the SVG's size (a PNG kept under a pixel budget); 1 by default. */
  scale?: number;
}

/**
 * SVG to PNG with resvg alone: it parses, sets the text from the given font files (shaping,
 * fallback to a face that has the character), draws and encodes, synchronously, in the calling
 * thread, which is a CPU worker (illustration/render.ts, mindmap/render-job.ts). The one place
 * the drawing engines turn SVG into pixels.
 */
export function rasterize(svg: string, options: RasterOptions = {}): Raster {
  const fonts = options.fonts ?? captionFonts();
  const family = options.family ?? CAPTION_FAMILY;
  const scale = options.scale ?? 1;
  const image = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: family, sansSerifFamily: family },
    shapeRendering: 2,
    textRendering: 1,
    ...(scale === 1 ? {} : { fitTo: { mode: 'zoom' as const, value: scale } }),
  }).render();
  return { png: image.asPng(), width: image.width, height: image.height, fonts: fonts.length };
}
