import { createHash } from 'node:crypto';
import { encodePng } from './png.js';

/** A seeded generator, so one prompt always gives the same picture. */
function seeded(seed: Buffer): () => number {
  let s = seed.readUInt32LE(0) || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h * 12) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/**
 * The gateway's local image_generation engine (model facet-illustration-1), kept small and separate
 * from the image task service's engine so either can change alone.
 * A deterministic abstract illustration of a prompt: the prompt's hash picks a palette, a gradient
 * background and a composition of discs and bands, one per significant word (up to twelve).
 */
export function illustrate(prompt: string, width: number, height: number, variant = 0): Buffer {
  const rand = seeded(createHash('sha256').update(`${variant}\u0000${prompt}`).digest());
  const hue = rand();
  const palette = [0, 0.08, 0.5, 0.58, 0.25].map((d, i) => hsl((hue + d) % 1, 0.55 + 0.1 * (i % 2), 0.35 + 0.1 * i));
  const px = new Uint8Array(width * height * 3);
  const [top, bottom] = [hsl(hue, 0.35, 0.9), hsl((hue + 0.1) % 1, 0.4, 0.7)];
  for (let y = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) px[o + c] = Math.round(top[c] * (1 - t) + bottom[c] * t);
    }
  }
  const words = (prompt.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? ['blank']).slice(0, 12);
  for (const [i, word] of words.entries()) {
    const color = palette[(word.length + i) % palette.length];
    const cx = rand() * width;
    const cy = rand() * height;
    const r = (0.05 + rand() * 0.18) * Math.min(width, height);
    const band = rand() < 0.3;
    const x0 = Math.max(0, Math.floor(band ? 0 : cx - r));
    const x1 = Math.min(width, Math.ceil(band ? width : cx + r));
    const y0 = Math.max(0, Math.floor(cy - r));
    const y1 = Math.min(height, Math.ceil(band ? cy - r / 2 : cy + r));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        if (!band && (x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        const o = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) px[o + c] = Math.round(px[o + c] * 0.3 + color[c] * 0.7);
      }
    }
  }
  return encodePng(width, height, px);
}
