import { MAP_PRIMARY_FAMILY, mapFontList } from '../fonts.js';
import { rasterize } from '../illustration/rasterize.js';
import type { Drawn } from './svg.js';

/**
 * How large a map's PNG may be. A drawing over MAX_PNG_PIXELS is drawn smaller to fit (the SVG
 * keeps every detail); one that would have to shrink below MIN_PNG_SCALE to fit is refused
 * instead, as its labels would be too small to read.
 */
export const PNG_LIMITS = { maxPixels: 40_000_000, minScale: 0.5 };

/** A drawing too large for a readable PNG: the caller's choice of map and layout, a 4xx. */
export class PngTooLarge extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(
      `this map is ${width}x${height} pixels in this layout: its PNG would be over ${PNG_LIMITS.maxPixels / 1e6} megapixels even at ${PNG_LIMITS.minScale * 100}% size; ` +
        'open it as SVG (format=svg) or in another layout',
    );
  }
}

/** The scale a drawing's PNG is drawn at: 1, or less to fit the pixel budget; throws PngTooLarge. */
export function pngScale(width: number, height: number): number {
  const pixels = width * height;
  if (pixels <= PNG_LIMITS.maxPixels) return 1;
  // Rounded down to a thousandth, so the scaled size stays inside the budget.
  const scale = Math.floor(Math.sqrt(PNG_LIMITS.maxPixels / pixels) * 1000) / 1000;
  if (scale < PNG_LIMITS.minScale) throw new PngTooLarge(width, height);
  return scale;
}

/** The PNG of a drawn map: resvg sets its labels from the files they were measured with. */
export function rasterizeMap(drawn: Drawn): Uint8Array {
  return rasterize(drawn.svg, {
    fonts: mapFontList(),
    family: MAP_PRIMARY_FAMILY,
    scale: pngScale(drawn.width, drawn.height),
  }).png;
}
