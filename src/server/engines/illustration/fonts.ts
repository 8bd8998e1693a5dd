import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The one font module of the drawing engines: which installed font files resvg sets text with, for
 * illustration captions and for mindmaps (whose labels fontkit also measures from the same files,
 * mindmap/measure.ts). Found once per process; nothing here draws.
 */
const FONT_ROOTS = ['/usr/share/fonts', '/usr/local/share/fonts'];

let cached: string[] | undefined;

function walk(dir: string, out: string[], depth = 0): void {
  if (depth > 4) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(full, out, depth + 1);
    else if (/\.(ttf|otf|ttc)$/i.test(name)) out.push(full);
  }
}

function installedFonts(): string[] {
  if (!cached) {
    cached = [];
    for (const root of FONT_ROOTS) walk(root, cached);
  }
  return cached;
}

/**
 * Fonts resvg falls back to for characters DejaVu lacks, so that a caption in Chinese, Japanese or
 * with emoji is drawn instead of empty boxes (Debian's fonts-wqy-microhei, fonts-noto-color-emoji).
 */
const FALLBACKS = [/wqy-microhei\.ttc$/, /NotoSansCJK-Regular\.ttc$/, /NotoColorEmoji\.ttf$/];

let captions: string[] | undefined;

/**
 * Font files for caption text. DejaVu Sans (Debian's fonts-dejavu-core) is preferred, with CJK and
 * emoji fallbacks when installed; any other installed font does. An empty list means resvg draws
 * no text, and the engine says so in the task log.
 */
export function captionFonts(): string[] {
  if (captions) return captions;
  const all = installedFonts();
  const dejavu = all.filter((f) => /DejaVuSans(-Bold)?\.ttf$/.test(f));
  const fallbacks = FALLBACKS.flatMap((re) => all.filter((f) => re.test(f)));
  captions = dejavu.length > 0 ? [...dejavu, ...fallbacks] : all.slice(0, 8);
  return captions;
}

export const CAPTION_FAMILY = 'DejaVu Sans';

/**
 * A mindmap's labels: DejaVu Sans (regular and bold) for Latin, Greek and Cyrillic, WenQuanYi
 * Micro Hei (fonts-wqy-microhei) for what DejaVu lacks (Chinese, Japanese, Korean). The SVG names
 * both families; resvg is given exactly these files, so a label is drawn in the face it was measured in.
 */
export const MAP_FAMILY = "'DejaVu Sans', 'WenQuanYi Micro Hei', sans-serif";
export const MAP_PRIMARY_FAMILY = 'DejaVu Sans';

const KNOWN = {
  regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  cjk: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
};

export interface MapFontFiles {
  regular: string | null;
  bold: string | null;
  cjk: string | null;
}

let mapFiles: MapFontFiles | undefined;

function find(known: string, pattern: RegExp): string | null {
  if (existsSync(known)) return known;
  return installedFonts().find((f) => pattern.test(f)) ?? null;
}

export function mapFontFiles(): MapFontFiles {
  mapFiles ??= {
    regular: find(KNOWN.regular, /DejaVuSans\.ttf$/),
    bold: find(KNOWN.bold, /DejaVuSans-Bold\.ttf$/),
    cjk: find(KNOWN.cjk, /wqy-microhei\.ttc$/),
  };
  return mapFiles;
}

/** The mindmap's font files as a list, for resvg. */
export function mapFontList(): string[] {
  const f = mapFontFiles();
  return [f.regular, f.bold, f.cjk].filter((x): x is string => x !== null);
}
