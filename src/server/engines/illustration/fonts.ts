import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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

/**
 * Fonts resvg falls back to for characters DejaVu lacks, so that a caption in Chinese, Japanese or
 * with emoji is drawn instead of empty boxes (Debian's fonts-wqy-microhei, fonts-noto-color-emoji).
 */
const FALLBACKS = [/wqy-microhei\.ttc$/, /NotoSansCJK-Regular\.ttc$/, /NotoColorEmoji\.ttf$/];

/**
 * Font files for caption text, found once per process. DejaVu Sans (Debian's fonts-dejavu-core)
 * is preferred, with CJK and emoji fallbacks when installed; any other installed font does. An
 * empty list means resvg draws no text, and the engine says so in the task log.
 */
export function captionFonts(): string[] {
  if (cached) return cached;
  const all: string[] = [];
  for (const root of FONT_ROOTS) walk(root, all);
  const dejavu = all.filter((f) => /DejaVuSans(-Bold)?\.ttf$/.test(f));
  const fallbacks = FALLBACKS.flatMap((re) => all.filter((f) => re.test(f)));
  cached = dejavu.length > 0 ? [...dejavu, ...fallbacks] : all.slice(0, 8);
  return cached;
}

export const CAPTION_FAMILY = 'DejaVu Sans';
