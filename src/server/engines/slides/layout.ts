import { linePitch, textWidth, type TextStyle } from './fonts.js';
import type { ChartSpec, DeckModel, SlideModel } from './model.js';
import { notesFor } from './deck.js';
import type { ThemeSpec } from './theme-spec.js';
import { shortenToLines } from './wrap.js';
import { pointRuns, runsText, type Run } from './runs.js';

/** Slide size in points: 16:9, 13.333 × 7.5 inches (pptxgenjs LAYOUT_WIDE). */
export const SLIDE_W = 960;
export const SLIDE_H = 540;

/**
 * A text frame as it is written: geometry in points, one style, and the text measured as lines
 * (paragraphs of lines). Its height holds every line at the exact pitch plus paragraph spacing and
 * insets, so nothing can overflow it (checked by `frameFits`). The lines are only the measure:
 * each paragraph is written as one paragraph of runs that PowerPoint wraps itself, never with
 * line breaks of facet's.
 */
export interface Frame {
  role: 'title' | 'subtitle' | 'body' | 'caption' | 'footer';
  x: number;
  y: number;
  w: number;
  h: number;
  style: TextStyle;
  color: string;
  pitch: number;
  /** Inner margin on every side, points. */
  inset: number;
  /** Hanging indent of bullets, points (0 = no bullets). */
  indent: number;
  paraSpace: number;
  align: 'left' | 'center' | 'right';
  paragraphs: string[][];
  /** Each paragraph's runs (bold, code) when it has styled text; else its lines joined are its text. */
  runs?: Run[][];
}

export interface LaidSlide {
  kind: SlideModel['kind'];
  title: string;
  /** Continuation of the previous slide (its points did not fit on one). */
  continued: boolean;
  frames: Frame[];
  /** One chart per unit the table's series are in, side by side: series share an axis only when they share a unit. */
  charts?: Array<{ spec: ChartSpec; x: number; y: number; w: number; h: number }>;
  notes: string;
}

/** Measured lines are kept this much narrower than the frame: renderers round advances differently. */
const WIDTH_SLACK = 0.96;
const TITLE_SIZE = 28;
const BODY_SIZE = 20;
const INSET = 6;

export function innerWidth(f: Pick<Frame, 'w' | 'inset' | 'indent'>): number {
  return f.w - 2 * f.inset - f.indent;
}

/** Height the frame's text takes: lines at the exact pitch, spacing after every paragraph, insets. */
export function textHeight(f: Pick<Frame, 'paragraphs' | 'pitch' | 'paraSpace' | 'inset'>): number {
  const lines = f.paragraphs.reduce((n, p) => n + p.length, 0);
  return lines * f.pitch + f.paragraphs.length * f.paraSpace + 2 * f.inset;
}

/** The invariant of the engine: every line fits the frame's width and all lines its height. */
export function frameFits(f: Frame): boolean {
  return (
    textHeight(f) <= f.h + 0.01 &&
    f.paragraphs.every((p) => p.every((l) => textWidth(l, f.style) <= innerWidth(f) + 0.01))
  );
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where titles and bodies go for a theme's background style. */
function contentBox(theme: ThemeSpec): Box {
  const left = theme.background === 'band-left' ? 84 : theme.background === 'frame' ? 72 : 60;
  const right = theme.background === 'frame' ? 72 : 60;
  return { x: left, y: 30, w: SLIDE_W - left - right, h: SLIDE_H - 30 - 44 };
}

function makeFrame(
  role: Frame['role'],
  box: Box,
  style: TextStyle,
  color: string,
  opts: { indent?: number; paraSpace?: number; align?: Frame['align']; inset?: number } = {},
): Frame {
  return {
    role,
    ...box,
    style,
    color,
    pitch: linePitch(style),
    inset: opts.inset ?? INSET,
    indent: opts.indent ?? 0,
    paraSpace: opts.paraSpace ?? 0,
    align: opts.align ?? 'left',
    paragraphs: [],
  };
}

/** Lines of one paragraph in a frame, cut short (with an ellipsis) past `maxLines`. */
function linesIn(f: Frame, text: string, maxLines: number): string[] {
  const width = innerWidth(f) * WIDTH_SLACK;
  return shortenToLines(text, width, f.style, Math.max(1, maxLines));
}

/** Lines that fit in a frame of height h at its pitch, after insets and one paragraph space. */
function maxLinesOf(f: Frame, h: number): number {
  return Math.max(1, Math.floor((h - 2 * f.inset - f.paraSpace) / f.pitch));
}

/** A title frame sized to its own (at most two) lines. */
function titleFrame(
  theme: ThemeSpec,
  box: Box,
  text: string,
  color: string,
  size = TITLE_SIZE,
  maxLines = 2,
  align: Frame['align'] = 'left',
): Frame {
  const f = makeFrame('title', box, { family: theme.fonts.heading, bold: true, size }, color, { align });
  f.paragraphs = [linesIn(f, text, maxLines)];
  f.h = textHeight(f);
  return f;
}

function footer(theme: ThemeSpec, n: number): Frame {
  const style: TextStyle = { family: theme.fonts.body, bold: false, size: 11 };
  // Above the frame theme's bottom rule, clear of the split theme's bands.
  const y = theme.background === 'frame' ? SLIDE_H - 48 : SLIDE_H - 38;
  const f = makeFrame('footer', { x: SLIDE_W - 120, y, w: 72, h: 0 }, style, theme.palette.muted, {
    align: 'right',
    inset: 2,
  });
  f.paragraphs = [[String(n)]];
  f.h = textHeight(f);
  return f;
}

function titleSlide(theme: ThemeSpec, s: Extract<SlideModel, { kind: 'title' }>): Omit<LaidSlide, 'notes'> {
  const p = theme.palette;
  const centered = theme.titleLayout === 'centered';
  const band = theme.titleLayout === 'band';
  const x = centered ? 100 : theme.background === 'band-left' ? 96 : 80;
  const w = SLIDE_W - x - (centered ? 100 : 80);
  const title = titleFrame(
    theme,
    { x, y: 0, w, h: 0 },
    s.title,
    band ? p.onAccent : p.text,
    40,
    3,
    centered ? 'center' : 'left',
  );
  const sub = makeFrame(
    'subtitle',
    { x, y: 0, w, h: 0 },
    { family: theme.fonts.body, bold: false, size: 20 },
    band ? p.onAccent : p.muted,
    { align: centered ? 'center' : 'left' },
  );
  sub.paragraphs = s.subtitle ? [linesIn(sub, s.subtitle, 2)] : [];
  sub.h = sub.paragraphs.length ? textHeight(sub) : 0;
  const total = title.h + (sub.h ? 12 + sub.h : 0);
  title.y = Math.round((SLIDE_H - total) / 2);
  sub.y = title.y + title.h + 12;
  return { kind: 'title', title: s.title, continued: false, frames: sub.h ? [title, sub] : [title] };
}

/** Body sizes tried, largest first: the largest that holds every point on one slide is used. */
const BODY_SIZES = [28, 24, BODY_SIZE];

/**
 * A points slide at the largest body size that holds all its points; at the smallest size, split
 * into as many slides as its points need (no point is ever cut between slides). Each body frame is
 * then trimmed to the height its lines take, so a card or bar never frames empty space.
 */
function pointsSlides(
  theme: ThemeSpec,
  s: Extract<SlideModel, { kind: 'points' | 'closing' }>,
  lang: 'en' | 'zh-Hans',
): Array<Omit<LaidSlide, 'notes'>> {
  for (const size of BODY_SIZES) {
    const laid = pointsAt(theme, s, lang, size);
    if (laid.length === 1 || size === BODY_SIZE) {
      for (const l of laid) {
        const body = l.frames[1];
        body.h = Math.min(body.h, textHeight(body));
      }
      return laid;
    }
  }
  throw new Error('unreachable');
}

function pointsAt(
  theme: ThemeSpec,
  s: Extract<SlideModel, { kind: 'points' | 'closing' }>,
  lang: 'en' | 'zh-Hans',
  size: number,
): Array<Omit<LaidSlide, 'notes'>> {
  const box = contentBox(theme);
  const p = theme.palette;
  const onBand = theme.background === 'band-top';
  const make = (continued: boolean) => {
    const suffix = continued ? (lang === 'zh-Hans' ? '（续）' : ' (cont.)') : '';
    const title = titleFrame(theme, { ...box, h: 0 }, s.title + suffix, onBand ? p.onAccent : p.text);
    const top = onBand ? Math.max(title.y + title.h + 34, 120) : title.y + title.h + 18;
    const card = theme.bulletStyle === 'card';
    const bar = theme.bulletStyle === 'bar' ? 18 : 0;
    const bodyBox = { x: box.x + bar, y: top, w: box.w - bar, h: box.y + box.h - top };
    const body = makeFrame('body', bodyBox, { family: theme.fonts.body, bold: false, size }, p.text, {
      indent: Math.round(size * 1.1),
      paraSpace: Math.round(size * 0.5),
      inset: card ? 18 : INSET,
    });
    body.runs = [];
    return { title, body };
  };
  const out: Array<Omit<LaidSlide, 'notes'>> = [];
  let cur = make(false);
  const maxLines = maxLinesOf(cur.body, cur.body.h);
  const add = (runs: Run[], lines: string[]) => {
    cur.body.paragraphs.push(lines);
    cur.body.runs!.push(
      lines.length && lines[lines.length - 1].endsWith('…') && !runsText(runs).endsWith('…')
        ? [{ text: joinLines(lines) }]
        : runs,
    );
  };
  for (const point of s.points) {
    const runs = pointRuns(point);
    const text = runsText(runs);
    if (!text) continue;
    const lines = linesIn(cur.body, text, maxLines);
    const next = { ...cur.body, paragraphs: [...cur.body.paragraphs, lines] };
    if (textHeight(next) > cur.body.h && cur.body.paragraphs.length > 0) {
      out.push({ kind: s.kind, title: s.title, continued: out.length > 0, frames: [cur.title, cur.body] });
      cur = make(true);
      add(runs, linesIn(cur.body, text, maxLinesOf(cur.body, cur.body.h)));
    } else add(runs, lines);
  }
  out.push({ kind: s.kind, title: s.title, continued: out.length > 0, frames: [cur.title, cur.body] });
  return out;
}

function chartSlide(theme: ThemeSpec, s: Extract<SlideModel, { kind: 'chart' }>): Omit<LaidSlide, 'notes'> {
  const box = contentBox(theme);
  const p = theme.palette;
  const onBand = theme.background === 'band-top';
  const title = titleFrame(theme, { ...box, h: 0 }, s.title, onBand ? p.onAccent : p.text);
  const caption = makeFrame('caption', { ...box, h: 0 }, { family: theme.fonts.body, bold: false, size: 12 }, p.muted);
  caption.paragraphs = [linesIn(caption, s.chart.caption, 1)];
  caption.h = textHeight(caption);
  caption.y = box.y + box.h - caption.h;
  const top = onBand ? Math.max(title.y + title.h + 34, 120) : title.y + title.h + 16;
  const panels = byUnit(s.chart);
  const gap = 24;
  const w = (box.w - gap * (panels.length - 1)) / panels.length;
  const charts = panels.map((spec, i) => ({ spec, x: box.x + i * (w + gap), y: top, w, h: caption.y - top - 8 }));
  return { kind: 'chart', title: s.title, continued: false, frames: [title, caption], charts };
}

/** The chart split by unit (in the order units first appear); at most three panels fit side by side. */
export function byUnit(spec: ChartSpec): ChartSpec[] {
  const units = [...new Set(spec.series.map((x) => x.unit ?? ''))].slice(0, 3);
  return units.map((u) => ({ ...spec, series: spec.series.filter((x) => (x.unit ?? '') === u) }));
}

/** Every slide of the deck laid out: measured, broken into lines, split where needed, numbered. */
export function layoutDeck(deck: DeckModel, theme: ThemeSpec): LaidSlide[] {
  const out: LaidSlide[] = [];
  for (const s of deck.slides) {
    const laid =
      s.kind === 'title'
        ? [titleSlide(theme, s)]
        : s.kind === 'chart'
          ? [chartSlide(theme, s)]
          : pointsSlides(theme, s, deck.lang);
    for (const l of laid) out.push({ ...l, notes: notesFor(s, deck.lang) });
  }
  out.forEach((s, i) => {
    if (s.kind !== 'title') s.frames.push(footer(theme, i + 1));
  });
  return out;
}

const CJK_EDGE = /[\u3000-\u9fff\uff00-\uffef]/;

/** Measured lines back into the paragraph's text: a space between words, none between CJK characters. */
export function joinLines(lines: string[]): string {
  return lines.reduce(
    (text, line) =>
      !text ? line : CJK_EDGE.test(text[text.length - 1]) || CJK_EDGE.test(line[0]) ? text + line : `${text} ${line}`,
    '',
  );
}

/** The plain text of a laid slide (title first), as indexed for retrieval and shown by the viewer without previews. */
export function slideText(s: LaidSlide): string {
  const text = s.frames
    .filter((f) => f.role !== 'footer')
    .map((f) => f.paragraphs.map((p, i) => (f.runs?.[i] ? runsText(f.runs[i]) : joinLines(p))).join('\n'));
  for (const c of s.charts ?? [])
    text.push(
      c.spec.series
        .map((x) => `${x.name}: ${c.spec.categories.map((cat, i) => `${cat} ${x.values[i]}`).join(', ')}`)
        .join('\n'),
    );
  return text.join('\n');
}
