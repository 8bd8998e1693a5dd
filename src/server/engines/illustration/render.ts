import { renderAsync } from '@resvg/resvg-js';
import { CAPTION_FAMILY, captionFonts } from './fonts.js';

/**
 * SVG to PNG at the SVG's own size, on libuv's thread pool so a large render never blocks the
 * server's event loop. Text uses the installed fonts (none: the caption is left out).
 */
export async function renderPng(svg: string, signal?: AbortSignal): Promise<{ png: Buffer; width: number; height: number; fonts: number }> {
  const fonts = captionFonts();
  signal?.throwIfAborted();
  // resvg's native binding takes over the signal it is given and refuses it on a second render, so
  // each render gets its own, aborted when the caller's is.
  const own = new AbortController();
  const forward = () => own.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  const image = await renderAsync(
    svg,
    {
      font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: CAPTION_FAMILY, sansSerifFamily: CAPTION_FAMILY },
      shapeRendering: 2,
      textRendering: 1,
    },
    own.signal,
  ).finally(() => signal?.removeEventListener('abort', forward));
  return { png: image.asPng(), width: image.width, height: image.height, fonts: fonts.length };
}
