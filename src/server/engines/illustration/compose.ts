import { createHash } from 'node:crypto';
import { withoutXmlForbidden } from '../../../contract/fields.js';
import { escapeMarkup } from '../../text/escape-markup.js';
import { breakLines } from '../../text/line-break.js';
import { mulberry32 } from '../seeded-random.js';

export interface ComposeInput {
  prompt: string;
  width: number;
  height: number;
  /** 0-based index when a task asks for several images. */
  index: number;
  /** Keywords from the bound site and reference files; they steer the shapes and the subtitle. */
  keywords: string[];
}

export interface Composition {
  svg: string;
  seed: string;
  layout: Layout;
  palette: string[];
  shapes: number;
  caption: string[];
}

type Layout = 'bands' | 'orbits' | 'grid' | 'peaks';
const LAYOUTS: Layout[] = ['bands', 'orbits', 'grid', 'peaks'];

/** Words that pull the palette towards a hue, so "night ocean" is blue and "desert sun" warm. */
const MOODS: Array<{ words: RegExp; hue: number }> = [
  { words: /\b(sun|fire|desert|autumn|warm|sunset|orange|red|gold|lava)\b/i, hue: 25 },
  { words: /\b(ocean|sea|night|winter|sky|water|blue|ice|rain|river)\b/i, hue: 210 },
  { words: /\b(forest|garden|leaf|spring|green|tree|meadow|jungle)\b/i, hue: 120 },
  { words: /\b(dream|magic|purple|violet|galaxy|space|cosmic)\b/i, hue: 275 },
];

/** The same prompt always gives the same picture: the generator is seeded from the prompt's hash. */
const prng = (seedHex: string): (() => number) => mulberry32(parseInt(seedHex.slice(0, 8), 16));

const hsl = (h: number, s: number, l: number) =>
  `hsl(${Math.round(((h % 360) + 360) % 360)}, ${Math.round(s)}%, ${Math.round(l)}%)`;

/**
 * Text as SVG character data. Prompts are checked at the API boundary, but keywords come from fetched
 * pages and reference files nobody checked: characters XML cannot hold are dropped here, so no text
 * can make the document unparseable.
 */
function svgText(text: string): string {
  return escapeMarkup(withoutXmlForbidden(text));
}

/** Lines of at most `maxChars` characters (an average glyph width is good enough for a caption card). */
function wrap(text: string, maxChars: number, maxLines: number): string[] {
  const lines = breakLines(text.replace(/\s+/g, ' ').trim(), (line) => [...line].length <= maxChars);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = [...kept[maxLines - 1]].slice(0, -1).join('') + '…';
  return kept;
}

export function seedOf(input: Omit<ComposeInput, 'keywords'> & { keywords?: string[] }): string {
  return createHash('sha256')
    .update(`${input.prompt}\n${(input.keywords ?? []).join(',')}\n${input.width}x${input.height}\n${input.index}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * Composes the illustration: a background gradient, a layout of shapes whose number and sizes
 * follow the prompt, a palette from the prompt's mood and the seed, and the prompt as a caption.
 * Shapes are see-through by fill-opacity, not opacity: resvg gives an element with opacity a layer
 * of its own (slower, and the kind of layer that aborts resvg 0.34 when it lies off the canvas).
 */
export function compose(input: ComposeInput): Composition {
  const { width: W, height: H } = input;
  const seed = seedOf(input);
  const rand = prng(seed);
  const mood = MOODS.find((m) => m.words.test(input.prompt));
  const baseHue = mood ? mood.hue + (rand() - 0.5) * 30 : rand() * 360;
  const scheme = [0, 30, 180, 210, -30];
  const palette = scheme.map((offset, i) => hsl(baseHue + offset, 55 + rand() * 30, 35 + i * 9 + rand() * 8));
  const layout = LAYOUTS[Math.floor(rand() * LAYOUTS.length)];
  const words = input.prompt.split(/\s+/).filter(Boolean).length + input.keywords.length;
  const shapes = Math.min(48, 6 + words * 2);
  const pick = () => palette[Math.floor(rand() * palette.length)];
  const body: string[] = [];

  for (let i = 0; i < shapes; i++) {
    const t = i / shapes;
    const opacity = (0.35 + rand() * 0.5).toFixed(2);
    switch (layout) {
      case 'bands': {
        const y = t * H;
        const h = H / shapes + rand() * H * 0.15;
        const skew = (rand() - 0.5) * H * 0.3;
        body.push(
          `<path d="M0 ${y.toFixed(1)} L${W} ${(y + skew).toFixed(1)} L${W} ${(y + skew + h).toFixed(1)} L0 ${(y + h).toFixed(1)} Z" fill="${pick()}" fill-opacity="${opacity}"/>`,
        );
        break;
      }
      case 'orbits': {
        const r = (Math.min(W, H) / 2) * (1 - t * 0.9) * (0.6 + rand() * 0.5);
        const cx = W / 2 + (rand() - 0.5) * W * 0.4;
        const cy = H * 0.42 + (rand() - 0.5) * H * 0.3;
        body.push(
          `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${pick()}" fill-opacity="${opacity}"/>`,
        );
        break;
      }
      case 'grid': {
        const cols = Math.ceil(Math.sqrt(shapes * (W / H)));
        const cw = W / cols;
        const rows = Math.ceil(shapes / cols);
        const ch = (H * 0.8) / rows;
        const x = (i % cols) * cw;
        const y = Math.floor(i / cols) * ch;
        const pad = Math.min(cw, ch) * (0.08 + rand() * 0.2);
        body.push(
          `<rect x="${(x + pad).toFixed(1)}" y="${(y + pad).toFixed(1)}" width="${(cw - 2 * pad).toFixed(1)}" height="${(ch - 2 * pad).toFixed(1)}" rx="${(pad * 1.5).toFixed(1)}" fill="${pick()}" fill-opacity="${opacity}"/>`,
        );
        break;
      }
      case 'peaks': {
        const x = rand() * W;
        const base = H * (0.55 + t * 0.45);
        const peak = base - H * (0.15 + rand() * 0.45);
        const half = W * (0.1 + rand() * 0.25);
        body.push(
          `<path d="M${(x - half).toFixed(1)} ${base.toFixed(1)} L${x.toFixed(1)} ${peak.toFixed(1)} L${(x + half).toFixed(1)} ${base.toFixed(1)} Z" fill="${pick()}" fill-opacity="${opacity}"/>`,
        );
        break;
      }
    }
  }

  const fontSize = Math.max(12, Math.round(Math.min(W, H) / 18));
  const maxChars = Math.max(8, Math.floor((W * 0.84) / (fontSize * 0.55)));
  const caption = wrap(input.prompt, maxChars, 3);
  const subtitle = input.keywords.length > 0 ? input.keywords.slice(0, 6).join(' · ') : '';
  const lineH = fontSize * 1.25;
  const cardH = lineH * caption.length + (subtitle ? fontSize * 1.1 : 0) + fontSize;
  const cardY = H - cardH - H * 0.04;
  const text = caption
    .map(
      (line, i) =>
        `<text x="${(W * 0.08).toFixed(1)}" y="${(cardY + fontSize * 0.5 + lineH * (i + 0.85)).toFixed(1)}" font-size="${fontSize}" font-weight="bold" fill="#ffffff">${svgText(line)}</text>`,
    )
    .join('');
  const sub = subtitle
    ? `<text x="${(W * 0.08).toFixed(1)}" y="${(cardY + fontSize * 0.5 + lineH * caption.length + fontSize * 0.8).toFixed(1)}" font-size="${Math.round(fontSize * 0.6)}" fill="#f0f0f0">${svgText(subtitle)}</text>`
    : '';

  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, sans-serif">`,
    `<!-- facet-illustration-1 seed=${seed} layout=${layout} -->`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(baseHue, 40, 92)}"/><stop offset="1" stop-color="${hsl(baseHue + 40, 45, 75)}"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>`,
    ...body,
    `<rect x="${(W * 0.05).toFixed(1)}" y="${cardY.toFixed(1)}" width="${(W * 0.9).toFixed(1)}" height="${cardH.toFixed(1)}" rx="${(fontSize * 0.5).toFixed(1)}" fill="#000000" fill-opacity="0.45"/>`,
    text,
    sub,
    '</svg>',
  ].join('\n');
  return { svg, seed, layout, palette, shapes, caption };
}
