import { renderAsync } from '@resvg/resvg-js';
import { CAPTION_FAMILY, captionFonts } from './fonts.js';

/**
 * SVG to PNG at the SVG's own size, on libuv's thread pool so a large render never blocks the
 * server's event loop. Text uses the installed fonts (none: the caption is left out).
 */
export async function renderPng(svg: string, signal?: AbortSignal): Promise<{ png: Buffer; width: number; height: number; fonts: number }> {
  const fonts = captionFonts();
  const image = await renderAsync(
    svg,
    {
      font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: CAPTION_FAMILY, sansSerifFamily: CAPTION_FAMILY },
      shapeRendering: 2,
      textRendering: 1,
    },
    signal ?? null,
  );
  return { png: image.asPng(), width: image.width, height: image.height, fonts: fonts.length };
}
