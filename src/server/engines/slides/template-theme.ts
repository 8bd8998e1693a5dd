import JSZip from 'jszip';
import { THEME_FONTS } from '../../../contract/slides.js';

/**
 * The colours and fonts of a PowerPoint template (.pptx or .potx): DrawingML keeps them in the
 * theme part of the slide master (ppt/theme/themeN.xml), as a colour scheme (dk1, lt1, dk2, lt2,
 * accent1-6) and a font scheme (major = headings, minor = body). A theme here is made of free
 * fonts only (measuring equals rendering), so each template font is matched to one of THEME_FONTS:
 * the metric-compatible one where it exists (Calibri → Carlito, Cambria → Caladea, Arial →
 * Liberation Sans, Times New Roman → Liberation Serif), else one of the same kind.
 */
export interface TemplateTheme {
  name: string;
  colors: Record<'dk1' | 'lt1' | 'dk2' | 'lt2' | 'accent1' | 'accent2', string>;
  fonts: { heading: TemplateFont; body: TemplateFont };
}

export interface TemplateFont {
  /** The template's own typeface ('' when it names none). */
  template: string;
  /** The free font used for it. */
  font: (typeof THEME_FONTS)[number];
}

/** The file is not a template this reads; `code` survives the CPU worker's boundary. */
export class NotATemplate extends Error {
  readonly code = 'NOT_A_TEMPLATE';
}

const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

export async function readTemplateTheme(data: Uint8Array): Promise<TemplateTheme> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch {
    throw new NotATemplate('the file is not a PowerPoint file (.pptx or .potx is a zip archive; this one is not)');
  }
  const part = await themePartOf(zip);
  if (!part) throw new NotATemplate('the file has no theme part (ppt/theme/theme1.xml): it is not a PowerPoint presentation or template');
  const xml = await zip.file(part)!.async('string');
  const scheme = /<a:clrScheme\b[\s\S]*?<\/a:clrScheme>/.exec(xml)?.[0];
  if (!scheme) throw new NotATemplate(`${part} has no colour scheme`);
  const colour = (slot: string): string => {
    const block = new RegExp(`<a:${slot}>([\\s\\S]*?)</a:${slot}>`).exec(scheme)?.[1] ?? '';
    const value = /<a:srgbClr val="([0-9A-Fa-f]{6})"/.exec(block)?.[1] ?? /<a:sysClr [^>]*lastClr="([0-9A-Fa-f]{6})"/.exec(block)?.[1];
    if (!value) throw new NotATemplate(`the colour scheme has no usable ${slot} colour`);
    return `#${value.toUpperCase()}`;
  };
  const typeface = (which: 'major' | 'minor'): string => {
    const block = new RegExp(`<a:${which}Font>([\\s\\S]*?)</a:${which}Font>`).exec(xml)?.[1] ?? '';
    return decode(/<a:latin [^>]*typeface="([^"]*)"/.exec(block)?.[1] ?? '').trim();
  };
  const name = decode(/<a:theme [^>]*name="([^"]*)"/.exec(xml)?.[1] ?? '').trim();
  const major = typeface('major');
  const minor = typeface('minor');
  return {
    name,
    colors: { dk1: colour('dk1'), lt1: colour('lt1'), dk2: colour('dk2'), lt2: colour('lt2'), accent1: colour('accent1'), accent2: colour('accent2') },
    fonts: { heading: { template: major, font: freeFontFor(major) }, body: { template: minor, font: freeFontFor(minor) } },
  };
}

/** The slide master's theme (presentation → master → theme relationships), else the first theme part. */
async function themePartOf(zip: JSZip): Promise<string | undefined> {
  const themes = Object.keys(zip.files).filter((n) => /^ppt\/theme\/theme\d+\.xml$/.test(n));
  const masterRels = Object.keys(zip.files).filter((n) => /^ppt\/slideMasters\/_rels\/slideMaster\d+\.xml\.rels$/.test(n)).sort();
  if (masterRels.length > 0) {
    const rels = await zip.file(masterRels[0])!.async('string');
    const target = /Type="[^"]*\/theme"[^>]*Target="\.\.\/theme\/(theme\d+\.xml)"|Target="\.\.\/theme\/(theme\d+\.xml)"[^>]*Type="[^"]*\/theme"/.exec(rels);
    const file = target && `ppt/theme/${target[1] ?? target[2]}`;
    if (file && themes.includes(file)) return file;
  }
  return themes.sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]))[0];
}

type FreeFont = (typeof THEME_FONTS)[number];

/** Template typefaces (lower case) and the free font drawn for them; metric-compatible ones first. */
const SUBSTITUTES: Array<[RegExp, FreeFont]> = [
  [/^(calibri|aptos|segoe ui|corbel|candara)\b/, 'Carlito'],
  [/^(cambria|constantia)\b/, 'Caladea'],
  [/^(arial|helvetica|tahoma|verdana|trebuchet ms|century gothic|gill sans|franklin gothic|liberation sans)\b/, 'Liberation Sans'],
  [/^(times new roman|times|georgia|garamond|palatino|book antiqua|century schoolbook|liberation serif)\b/, 'Liberation Serif'],
  [/^(microsoft yahei|dengxian|等线|微软雅黑|simhei|黑体|simsun|宋体|pingfang|noto sans cjk|source han|wenquanyi)/, 'WenQuanYi Micro Hei'],
];

export function freeFontFor(typeface: string): FreeFont {
  const exact = THEME_FONTS.find((f) => f.toLowerCase() === typeface.toLowerCase());
  if (exact) return exact;
  const lower = typeface.toLowerCase();
  return SUBSTITUTES.find(([pattern]) => pattern.test(lower))?.[1] ?? (/serif|roman|book|mincho|song/.test(lower) && !/sans/.test(lower) ? 'Liberation Serif' : 'Liberation Sans');
}
