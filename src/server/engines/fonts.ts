import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The one font module of the engines: which installed font files text is set with (resvg for
 * illustration captions and mindmaps, LibreOffice for decks) and the fontkit faces the layouts
 * measure with, opened from the very same files so that what was measured to fit is drawn inside.
 * Found and opened once per process; nothing here draws or measures.
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

export function installedFonts(): string[] {
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

/** A font file with the glyphs of Chinese, Japanese and Korean text, and the family name it goes by. */
export interface CjkFont {
  file: string;
  family: string;
}

/** Characters a CJK face must draw: a Han character (中), a kana (あ), a Hangul syllable (한) when it can. */
const HAN = 0x4e2d;

/** fontconfig's choice for a language's text (`fc-match :lang=zh-cn`): its file and family, or null without fontconfig. */
function fcMatch(lang: string): CjkFont | null {
  try {
    const out = execFileSync('fc-match', ['-f', '%{file}\n%{family[0]}', `:lang=${lang}`], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [file, family] = out.split('\n');
    return file && family ? { file: file.trim(), family: family.trim() } : null;
  } catch {
    return null;
  }
}

/**
 * The CJK face labels are set in: fontconfig's match for Chinese when that face has the glyphs
 * (fontconfig falls back to a Latin font when no CJK font is installed), else the first installed
 * font file that has them. `exclude` leaves files out (a host without one of them).
 */
export function pickCjkFont(matched: CjkFont | null, installed: string[], exclude?: RegExp): CjkFont | null {
  const ok = (file: string) => !exclude?.test(file) && (openFace(file)?.hasGlyphForCodePoint(HAN) ?? false);
  if (matched && ok(matched.file)) return matched;
  for (const file of installed) if (ok(file)) return { file, family: openFace(file)!.familyName };
  return null;
}

let cjk: CjkFont | null | undefined;

/** This host's CJK face (found once per process). */
export function cjkFont(): CjkFont | null {
  if (cjk === undefined) cjk = pickCjkFont(fcMatch('zh-cn'), installedFonts());
  return cjk;
}

/**
 * A mindmap's labels: DejaVu Sans (regular and bold) for Latin, Greek and Cyrillic, and the CJK
 * face fontconfig picks (Noto Sans CJK, WenQuanYi Micro Hei or any other with the glyphs) for what
 * DejaVu lacks. The SVG names both families; resvg is given exactly these files, so a label is
 * drawn in the face it was measured in.
 */
export function mapFamily(font: CjkFont | null = cjkFont()): string {
  return font ? `'DejaVu Sans', '${font.family.replace(/'/g, '')}', sans-serif` : "'DejaVu Sans', sans-serif";
}
export const MAP_PRIMARY_FAMILY = 'DejaVu Sans';

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
    regular: find(FONT_FILES['DejaVu Sans'].regular, /DejaVuSans\.ttf$/),
    bold: find(FONT_FILES['DejaVu Sans'].bold, /DejaVuSans-Bold\.ttf$/),
    cjk: cjkFont()?.file ?? null,
  };
  return mapFiles;
}

/** The mindmap's font files as a list, for resvg. */
export function mapFontList(): string[] {
  const f = mapFontFiles();
  return [f.regular, f.bold, f.cjk].filter((x): x is string => x !== null);
}

/**
 * The font families a deck may use, each with the Debian font files LibreOffice renders it with
 * (docs/decisions.md "Slide decks"). CJK characters fall back to WenQuanYi Micro Hei, as
 * LibreOffice's own fallback does on Debian; mindmaps use its DejaVu Sans and WenQuanYi entries.
 */
export const FONT_FILES = {
  Lato: {
    regular: '/usr/share/fonts/truetype/lato/Lato-Regular.ttf',
    bold: '/usr/share/fonts/truetype/lato/Lato-Bold.ttf',
  },
  'Open Sans': {
    regular: '/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf',
    bold: '/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf',
  },
  Carlito: {
    regular: '/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf',
    bold: '/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf',
  },
  Caladea: {
    regular: '/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf',
    bold: '/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf',
  },
  'Liberation Sans': {
    regular: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
    bold: '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
  },
  'Liberation Serif': {
    regular: '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf',
    bold: '/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf',
  },
  'DejaVu Sans': {
    regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  },
  'DejaVu Serif': {
    regular: '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
    bold: '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf',
  },
  'WenQuanYi Micro Hei': {
    regular: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
    bold: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  },
} as const;

export type FontFamily = keyof typeof FONT_FILES;
export const CJK_FALLBACK: FontFamily = 'WenQuanYi Micro Hei';

const faces = new Map<string, fontkit.Font | null>();

/** The fontkit face of a font file (a .ttc's first, proportional face), or null when it is not installed. */
export function openFace(file: string | null): fontkit.Font | null {
  if (!file) return null;
  let face = faces.get(file);
  if (face === undefined) {
    face = null;
    if (existsSync(file)) {
      try {
        const opened = fontkit.openSync(file);
        face = 'fonts' in opened ? opened.fonts[0] : opened;
      } catch {
        face = null;
      }
    }
    faces.set(file, face);
  }
  return face;
}
