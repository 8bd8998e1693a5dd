import { DocumentRefused } from '../extract/limits.js';
import { attributeOf, elementsNamed, firstNamed, parseXml, type XmlNode } from '../extract/xml.js';
import { readZip } from '../extract/zip-guard.js';
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

/** The file is not a template this reads (400); it crosses the CPU worker as a guarded value. */
export class NotATemplate extends DocumentRefused {
  constructor(message: string) {
    super('INVALID_PARAMETER', message);
  }
}

const THEME = /^ppt\/theme\/theme(\d+)\.xml$/;
const MASTER_RELS = /^ppt\/slideMasters\/_rels\/slideMaster\d+\.xml\.rels$/;

/**
 * Reads the theme of a template within the ZIP limits (zip-guard.ts): only the theme parts and the
 * masters' relationships are inflated, and read with the XML parser (extract/xml.ts).
 */
export async function readTemplateTheme(data: Uint8Array): Promise<TemplateTheme> {
  let parts: Map<string, Buffer>;
  try {
    parts = await readZip(data, 'a PowerPoint file (.pptx or .potx)', (n) => THEME.test(n) || MASTER_RELS.test(n));
  } catch (err) {
    if (err instanceof DocumentRefused && err.code === 'INVALID_PARAMETER')
      throw new NotATemplate('the file is not a PowerPoint file (.pptx or .potx is a zip archive; this one is not)');
    throw err;
  }
  const part = themePartOf(parts);
  if (!part)
    throw new NotATemplate(
      'the file has no theme part (ppt/theme/theme1.xml): it is not a PowerPoint presentation or template',
    );
  const theme = xmlOf(part, parts.get(part)!);
  const scheme = firstNamed(theme, 'a:clrScheme');
  if (!scheme) throw new NotATemplate(`${part} has no colour scheme`);
  const colour = (slot: string): string => {
    const block = firstNamed([scheme], `a:${slot}`);
    const srgb = block && firstNamed([block], 'a:srgbClr');
    const sys = block && firstNamed([block], 'a:sysClr');
    const value = [srgb && attributeOf(srgb, 'val'), sys && attributeOf(sys, 'lastClr')].find(
      (v) => v !== undefined && /^[0-9A-Fa-f]{6}$/.test(v),
    );
    if (!value) throw new NotATemplate(`the colour scheme has no usable ${slot} colour`);
    return `#${value.toUpperCase()}`;
  };
  const typeface = (which: 'major' | 'minor'): string => {
    const block = firstNamed(theme, `a:${which}Font`);
    const latin = block && firstNamed([block], 'a:latin');
    return (latin && attributeOf(latin, 'typeface'))?.trim() ?? '';
  };
  const root = firstNamed(theme, 'a:theme');
  const name = (root && attributeOf(root, 'name'))?.trim() ?? '';
  const major = typeface('major');
  const minor = typeface('minor');
  return {
    name,
    colors: {
      dk1: colour('dk1'),
      lt1: colour('lt1'),
      dk2: colour('dk2'),
      lt2: colour('lt2'),
      accent1: colour('accent1'),
      accent2: colour('accent2'),
    },
    fonts: {
      heading: { template: major, font: freeFontFor(major) },
      body: { template: minor, font: freeFontFor(minor) },
    },
  };
}

/** The slide master's theme (presentation → master → theme relationships), else the first theme part. */
function themePartOf(parts: Map<string, Buffer>): string | undefined {
  const names = [...parts.keys()];
  const themes = names.filter((n) => THEME.test(n));
  const masterRels = names.filter((n) => MASTER_RELS.test(n)).sort();
  if (masterRels.length > 0) {
    const rels = xmlOf(masterRels[0], parts.get(masterRels[0])!);
    const theme = elementsNamed(rels, 'Relationship').find((r) => attributeOf(r, 'Type')?.endsWith('/theme'));
    const target = theme && /^\.\.\/theme\/(theme\d+\.xml)$/.exec(attributeOf(theme, 'Target') ?? '');
    const file = target && `ppt/theme/${target[1]}`;
    if (file && themes.includes(file)) return file;
  }
  return themes.sort((a, b) => Number(THEME.exec(a)![1]) - Number(THEME.exec(b)![1]))[0];
}

function xmlOf(name: string, part: Buffer): XmlNode[] {
  try {
    return parseXml(part.toString('utf8'));
  } catch (err) {
    throw new NotATemplate(`${name} cannot be read: ${(err as Error).message}`);
  }
}

type FreeFont = (typeof THEME_FONTS)[number];

/** Template typefaces (lower case) and the free font drawn for them; metric-compatible ones first. */
const SUBSTITUTES: Array<[RegExp, FreeFont]> = [
  [/^(calibri|aptos|segoe ui|corbel|candara)\b/, 'Carlito'],
  [/^(cambria|constantia)\b/, 'Caladea'],
  [
    /^(arial|helvetica|tahoma|verdana|trebuchet ms|century gothic|gill sans|franklin gothic|liberation sans)\b/,
    'Liberation Sans',
  ],
  [
    /^(times new roman|times|georgia|garamond|palatino|book antiqua|century schoolbook|liberation serif)\b/,
    'Liberation Serif',
  ],
  [
    /^(microsoft yahei|dengxian|等线|微软雅黑|simhei|黑体|simsun|宋体|pingfang|noto sans cjk|source han|wenquanyi)/,
    'WenQuanYi Micro Hei',
  ],
];

export function freeFontFor(typeface: string): FreeFont {
  const exact = THEME_FONTS.find((f) => f.toLowerCase() === typeface.toLowerCase());
  if (exact) return exact;
  const lower = typeface.toLowerCase();
  return (
    SUBSTITUTES.find(([pattern]) => pattern.test(lower))?.[1] ??
    (/serif|roman|book|mincho|song/.test(lower) && !/sans/.test(lower) ? 'Liberation Serif' : 'Liberation Sans')
  );
}
