import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compose } from './compose.js';
import { renderPng } from './render.js';

export interface IllustrationRequest {
  prompt: string;
  width: number;
  height: number;
  count: number;
  keywords: string[];
  outDir: string;
  /**
   * Settles once outDir exists, when the caller is still making it: the engine composes and renders
   * meanwhile and waits for it only to write.
   */
  outDirReady?: Promise<unknown>;
  signal?: AbortSignal;
  log?: (line: string) => Promise<void> | void;
  /**
   * Count each SVG's tokens (o200k_base) in the job that renders it, for a caller that meters them:
   * onImage then gets `svgTokens`. Saves a second trip to the CPU worker per image.
   */
  countTokens?: boolean;
  /** Called once per image after it is drawn: the metering hook. */
  onImage?: (image: { index: number; svg: string; svgTokens?: number }) => Promise<void> | void;
}

export interface IllustrationImage {
  file: string;
  svg_file: string;
  seed: string;
  layout: string;
  palette: string[];
  shapes: number;
  width: number;
  height: number;
}

/**
 * The local illustration engine: for each requested image, compose the SVG, render it to PNG and
 * write both into the task's output folder. Checks the signal between images, so a cancel lands
 * before the next one.
 */
export async function generateIllustrations(req: IllustrationRequest): Promise<IllustrationImage[]> {
  const images: IllustrationImage[] = [];
  for (let index = 0; index < req.count; index++) {
    req.signal?.throwIfAborted();
    const c = compose({ prompt: req.prompt, width: req.width, height: req.height, index, keywords: req.keywords });
    // The render goes to the CPU worker first: the log line is written while it draws.
    const rendering = renderPng(c.svg, req.signal, { countTokens: req.countTokens });
    rendering.catch(() => undefined); // awaited below; a failure is not unhandled meanwhile
    await req.log?.(`composed image ${index + 1}/${req.count}: layout ${c.layout}, ${c.shapes} shapes, seed ${c.seed}`);
    const { png, width, height, fonts, svgTokens } = await rendering;
    if (index === 0 && fonts === 0) await req.log?.('no fonts found under /usr/share/fonts: the caption is left out (install fonts-dejavu-core)');
    const base = `illustration-${index + 1}`;
    await req.outDirReady;
    await writeFile(path.join(req.outDir, `${base}.svg`), c.svg);
    await writeFile(path.join(req.outDir, `${base}.png`), png);
    await req.onImage?.({ index, svg: c.svg, svgTokens });
    await req.log?.(`rendered ${base}.png (${width}x${height}, ${png.length} bytes)`);
    images.push({ file: `${base}.png`, svg_file: `${base}.svg`, seed: c.seed, layout: c.layout, palette: c.palette, shapes: c.shapes, width, height });
  }
  return images;
}
