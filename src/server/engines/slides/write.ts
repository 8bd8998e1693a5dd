import { PptxGenJS, type Pptx, type TextProps } from './pptx-lib.js';
import type { Frame, LaidSlide } from './layout.js';
import { joinLines, SLIDE_H, SLIDE_W } from './layout.js';
import type { ThemeSpec } from './theme-spec.js';

const IN = (pt: number) => pt / 72;

type Slide = ReturnType<Pptx['addSlide']>;

/** The theme's background shapes, drawn first, so text and charts sit on them. */
function background(pptx: Pptx, slide: Slide, theme: ThemeSpec, laid: LaidSlide): void {
  const p = theme.palette;
  slide.background = { color: p.background };
  const rect = (x: number, y: number, w: number, h: number, color: string) =>
    slide.addShape(pptx.ShapeType.rect, {
      x: IN(x),
      y: IN(y),
      w: IN(w),
      h: IN(h),
      fill: { color },
      line: { color, width: 0 },
    });
  if (laid.kind === 'title') {
    if (theme.titleLayout === 'band') {
      const [t, sub] = laid.frames;
      const top = t.y - 36;
      const bottom = (sub ?? t).y + (sub ?? t).h + 36;
      rect(0, top, SLIDE_W, bottom - top, p.accent);
      rect(0, bottom, SLIDE_W, 8, p.accent2);
    } else if (theme.titleLayout === 'left') {
      const t = laid.frames[0];
      rect(t.x + t.inset, t.y - 22, 96, 8, p.accent);
      if (theme.background === 'band-left') rect(0, 0, 48, SLIDE_H, p.accent);
      else rect(SLIDE_W - 24, 0, 24, SLIDE_H, p.accent);
    } else {
      rect(SLIDE_W / 2 - 60, laid.frames[0].y - 28, 120, 6, p.accent);
      if (theme.background === 'frame') frame(rect, p.accent);
    }
    return;
  }
  const title = laid.frames[0];
  switch (theme.background) {
    case 'band-top':
      rect(0, 0, SLIDE_W, Math.max(title.y + title.h + 16, 102), p.accent);
      rect(0, Math.max(title.y + title.h + 16, 102), SLIDE_W, 5, p.accent2);
      break;
    case 'band-left':
      rect(0, 0, 30, SLIDE_H, p.accent);
      break;
    case 'frame':
      frame(rect, p.accent);
      break;
    case 'split':
      rect(0, SLIDE_H - 14, SLIDE_W * 0.62, 14, p.accent);
      rect(SLIDE_W * 0.62, SLIDE_H - 14, SLIDE_W * 0.38, 14, p.accent2);
      break;
    case 'solid':
      rect(title.x + title.inset, title.y + title.h + 4, 72, 4, p.accent);
      break;
  }
  const body = laid.frames.find((f) => f.role === 'body');
  if (body && theme.bulletStyle === 'card') {
    slide.addShape(pptx.ShapeType.roundRect, {
      x: IN(body.x),
      y: IN(body.y),
      w: IN(body.w),
      h: IN(body.h),
      fill: { color: p.surface },
      line: { color: p.surface, width: 0 },
      rectRadius: 0.08,
    });
  }
  if (body && theme.bulletStyle === 'bar')
    rect(body.x - 18, body.y + 4, 5, Math.min(body.h - 8, usedHeight(body)), p.accent);
}

function frame(rect: (x: number, y: number, w: number, h: number, c: string) => void, color: string): void {
  rect(18, 18, SLIDE_W - 36, 3, color);
  rect(18, SLIDE_H - 21, SLIDE_W - 36, 3, color);
}

function usedHeight(f: Frame): number {
  const lines = f.paragraphs.reduce((n, p) => n + p.length, 0);
  return lines * f.pitch + (f.paragraphs.length - 1) * f.paraSpace + 2 * f.inset;
}

/** The face code runs are set in: monospace, installed with DejaVu (fonts-dejavu-core) where LibreOffice renders. */
const CODE_FACE = 'DejaVu Sans Mono';

/**
 * One text frame: a paragraph per point, each written as its runs (bold as bold, code in a
 * monospace face) that PowerPoint wraps itself: no line breaks of facet's, so text reflows when
 * edited and copies as it reads. The layout measured that the lines fit at this size and pitch.
 */
function text(slide: Slide, f: Frame): void {
  const runs: TextProps[] = [];
  f.paragraphs.forEach((para, pi) => {
    const parts = f.runs?.[pi] ?? [{ text: joinLines(para) }];
    parts.forEach((r, ri) => {
      runs.push({
        text: r.text,
        options: {
          ...(f.indent > 0 ? { bullet: { indent: f.indent } } : {}),
          ...(r.bold ? { bold: true } : {}),
          ...(r.code ? { fontFace: CODE_FACE } : {}),
          breakLine: ri === parts.length - 1 && pi < f.paragraphs.length - 1,
        },
      });
    });
  });
  slide.addText(runs, {
    x: IN(f.x),
    y: IN(f.y),
    w: IN(f.w),
    h: IN(f.h),
    margin: f.inset,
    fontFace: f.style.family,
    fontSize: f.style.size,
    bold: f.style.bold,
    color: f.color,
    align: f.align,
    valign: 'top',
    lineSpacing: f.pitch,
    paraSpaceAfter: f.paraSpace,
    fit: 'none',
    wrap: true,
  });
}

/** A number format with as many decimals as the most precise value (at most 3), thousands grouped. */
export function decimalsFormat(values: number[]): string {
  const d = Math.min(3, Math.max(0, ...values.map((v) => (String(v).split('.')[1] ?? '').length)));
  return d === 0 ? '#,##0' : `#,##0.${'0'.repeat(d)}`;
}

function charts(pptx: Pptx, slide: Slide, laid: LaidSlide, theme: ThemeSpec): void {
  const all = laid.charts ?? [];
  for (const c of all) chart(pptx, slide, c, theme, all.length > 1);
}

function chart(
  pptx: Pptx,
  slide: Slide,
  laid: NonNullable<LaidSlide['charts']>[number],
  theme: ThemeSpec,
  titled: boolean,
): void {
  const { spec, x, y, w, h } = laid;
  const p = theme.palette;
  const data = spec.series.map((s) => ({ name: s.name, labels: spec.categories, values: s.values }));
  slide.addChart(spec.type === 'line' ? pptx.ChartType.line : pptx.ChartType.bar, data, {
    x: IN(x),
    y: IN(y),
    w: IN(w),
    h: IN(h),
    barDir: 'col',
    chartColors: p.chart,
    showLegend: spec.series.length > 1,
    legendPos: 'b',
    legendFontFace: theme.fonts.body,
    legendFontSize: 12,
    legendColor: p.text,
    catAxisLabelColor: p.text,
    valAxisLabelColor: p.muted,
    catAxisLabelFontFace: theme.fonts.body,
    valAxisLabelFontFace: theme.fonts.body,
    catAxisLabelFontSize: 12,
    valAxisLabelFontSize: 11,
    valGridLine: { color: p.surface, size: 1 },
    catAxisLineShow: true,
    showValue: spec.series.length === 1 && spec.categories.length <= 8,
    dataLabelColor: p.text,
    // Labels show the source's own precision: 1.8 kg is not "2".
    dataLabelFormatCode: decimalsFormat(spec.series.flatMap((s) => s.values)),
    dataLabelFontSize: 11,
    dataLabelPosition: spec.type === 'line' ? 't' : 'outEnd',
    lineSize: 3,
    lineDataSymbolSize: 8,
    // Side-by-side panels of one table: each names its series (and so its unit) above it.
    ...(titled
      ? {
          showTitle: true,
          title: spec.series.map((s) => s.name).join(' · '),
          titleFontFace: theme.fonts.body,
          titleFontSize: 14,
          titleColor: p.text,
        }
      : {}),
  });
}

/** The .pptx file of a laid-out deck, written natively (text, shapes, a chart part per chart). */
export async function writeDeck(slides: LaidSlide[], theme: ThemeSpec, meta: { title: string }): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = meta.title;
  pptx.company = 'facet';
  pptx.theme = { headFontFace: theme.fonts.heading, bodyFontFace: theme.fonts.body };
  for (const laid of slides) {
    const slide = pptx.addSlide();
    background(pptx, slide, theme, laid);
    charts(pptx, slide, laid, theme);
    for (const f of laid.frames) text(slide, f);
    slide.addNotes(laid.notes);
  }
  const out = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
  return Buffer.from(out);
}
