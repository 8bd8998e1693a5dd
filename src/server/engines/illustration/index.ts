import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compose } from './compose.js';
import { renderPng } from './render.js';
import { countTokens } from '../gateway/tokenizer.js';

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
  /** The API key or user the images are for: renders take turns by it in the CPU pool. */
  owner?: string;
  /**
   * Progress lines. Not waited for (a job's log commits its lines in order and before the run ends):
   * a line's commit is never on the image's path. A promise it returns must not reject unhandled.
   */
  log?: (line: string) => unknown;
  /**
   * Count each SVG's tokens (o200k_base), for a caller that meters them: onImage then gets
   * `svgTokens`. The count runs in a CPU worker beside the render (on the general lane: metering is
   * background work, and the render holds the light lane), so it is ready when the PNG is.
   */
  countTokens?: boolean;
  /**
   * Called once per image as its render starts, with the image it will be (a PNG at the SVG's own
   * size, which is the size asked for): a caller can write what describes it while it is drawn.
   * onImage then gets the image as drawn.
   */
  onPlanned?: (planned: { index: number; image: IllustrationImage }) => void;
  /**
   * Called once per image once it is drawn, while its PNG is being written (the metering hook);
   * the image counts as done when both are.
   */
  onImage?: (drawn: {
    index: number;
    svg: string;
    svgTokens?: number;
    image: IllustrationImage;
  }) => Promise<void> | void;
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

/** Waits for every one, then throws the first failure: none is left running behind an error. */
async function allSettled(steps: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(steps)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
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
    // The render goes to a CPU worker first (and the token count, if asked, to another): the rest happens while it draws.
    const rendering = renderPng(c.svg, req.signal, req.owner);
    const counting = req.countTokens ? countTokens(c.svg, { urgent: false }) : undefined;
    counting?.catch(() => undefined); // awaited below; a failure is not unhandled meanwhile
    req.log?.(`composed image ${index + 1}/${req.count}: layout ${c.layout}, ${c.shapes} shapes, seed ${c.seed}`);
    const base = `illustration-${index + 1}`;
    const described = (width: number, height: number): IllustrationImage => ({
      file: `${base}.png`,
      svg_file: `${base}.svg`,
      seed: c.seed,
      layout: c.layout,
      palette: c.palette,
      shapes: c.shapes,
      width,
      height,
    });
    req.onPlanned?.({ index, image: described(req.width, req.height) });
    // The SVG is written while it is drawn; each write is an open, a write and a close on the thread pool.
    const svgWritten = Promise.resolve(req.outDirReady).then(() =>
      writeFile(path.join(req.outDir, `${base}.svg`), c.svg),
    );
    svgWritten.catch(() => undefined);
    // A failed render waits for that write: nothing of this image is still being written when it throws.
    const { png, width, height, fonts } = await rendering.catch(async (err: unknown) => {
      await svgWritten.catch(() => undefined);
      throw err;
    });
    if (index === 0 && fonts === 0)
      req.log?.('no fonts found under /usr/share/fonts: the caption is left out (install fonts-dejavu-core)');
    await req.outDirReady;
    const image = described(width, height);
    // The image is drawn: handed to onImage (metering) while its PNG is written.
    const handedOver = async () => req.onImage?.({ index, svg: c.svg, svgTokens: await counting, image });
    await allSettled([svgWritten, writeFile(path.join(req.outDir, image.file), png), handedOver()]);
    req.log?.(`rendered ${image.file} (${width}x${height}, ${png.length} bytes)`);
    images.push(image);
  }
  return images;
}
