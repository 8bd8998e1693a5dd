import { CreateThemeRequest, type Theme } from '../../contract/slides.js';
import type { AppContext } from '../context.js';
import { fileKey } from '../files/file-store.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import * as repo from '../store/slides.repo.js';
import type { Palette, ThemeSpec } from '../engines/slides/theme-spec.js';
import { DEFAULT_THEMES } from '../engines/slides/themes.js';
import { sampleDeck } from '../engines/slides/sample.js';
import { runCpuJob } from '../engines/workers/index.js';
import { PreviewUnavailable, renderPreviews } from '../engines/slides/preview.js';
import type { TemplateTheme } from '../engines/slides/template-theme.js';
import { DocumentRefused, unguard } from '../engines/extract/limits.js';
import { pageLink, requirePageLink } from '../auth/signed-links.js';

type Lang = 'en' | 'zh-Hans';

type LinkCtx = Pick<AppContext, 'baseUrl' | 'tokenSecret' | 'now'>;

/** The shipped themes' pictures are the same everywhere and open to all; a custom theme's is its owner's, behind a signed link. */
function previewUrl(ctx: LinkCtx, spec: ThemeSpec, type: 'default' | 'custom'): string {
  const path = `/slides/themes/${encodeURIComponent(spec.id)}/preview.png`;
  return type === 'default' ? `${ctx.baseUrl}${path}` : pageLink(ctx, 'theme-preview', spec.id, path);
}

function toTheme(ctx: LinkCtx, spec: ThemeSpec, type: 'default' | 'custom', lang: Lang): Theme {
  const p = spec.palette;
  return {
    id: spec.id,
    title: spec.title[lang],
    subtitle: spec.subtitle[lang],
    description: spec.description[lang],
    type,
    preview_url: previewUrl(ctx, spec, type),
    colors: {
      background: `#${p.background}`,
      surface: `#${p.surface}`,
      text: `#${p.text}`,
      muted: `#${p.muted}`,
      accent: `#${p.accent}`,
      accent2: `#${p.accent2}`,
    },
    fonts: { ...spec.fonts },
    background: spec.background,
    title_layout: spec.titleLayout,
    bullet_style: spec.bulletStyle,
  };
}

function specOf(row: repo.ThemeRow): ThemeSpec {
  return JSON.parse(row.spec) as ThemeSpec;
}

export async function listThemes(
  ctx: AppContext,
  userId: string,
  q: { lang: Lang; type?: 'default' | 'custom'; keyword?: string; page: number; size: number },
) {
  const defaults = q.type === 'custom' ? [] : DEFAULT_THEMES.map((t) => ({ spec: t, type: 'default' as const }));
  const custom =
    q.type === 'default'
      ? []
      : (await repo.userThemes(ctx.db, userId)).map((r) => ({ spec: specOf(r), type: 'custom' as const }));
  const needle = q.keyword?.toLowerCase();
  // The keyword matches the title in the language asked for, or in English.
  const all = [...defaults, ...custom].filter(
    (t) =>
      !needle || t.spec.title[q.lang].toLowerCase().includes(needle) || t.spec.title.en.toLowerCase().includes(needle),
  );
  const items = all.slice((q.page - 1) * q.size, q.page * q.size).map((t) => toTheme(ctx, t.spec, t.type, q.lang));
  return { total: all.length, page: q.page, size: q.size, items };
}

/** WCAG relative luminance and contrast ratio: custom themes must keep text readable. */
function luminance(hex: string): number {
  const [r, g, b] = [0, 2, 4]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Blend of two colours, for the surface and muted colours a theme leaves out. */
function mix(a: string, b: string, t: number): string {
  return [0, 2, 4]
    .map((i) =>
      Math.round(parseInt(a.slice(i, i + 2), 16) * (1 - t) + parseInt(b.slice(i, i + 2), 16) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase();
}

const hex = (c: string) => c.replace(/^#/, '').toUpperCase();

export async function createTheme(ctx: AppContext, userId: string, body: CreateThemeRequest): Promise<Theme> {
  const bg = hex(body.colors.background);
  const text = hex(body.colors.text);
  const accent = hex(body.colors.accent);
  if (contrast(text, bg) < 4.5) {
    throw new HttpError(
      'INVALID_PARAMETER',
      `colors.text ${body.colors.text} on colors.background ${body.colors.background} has a contrast of ${contrast(text, bg).toFixed(2)}:1; at least 4.5:1 is needed so slides stay readable`,
    );
  }
  const onAccent = contrast('FFFFFF', accent) >= contrast('111111', accent) ? 'FFFFFF' : '111111';
  const muted = body.colors.muted ? hex(body.colors.muted) : mix(text, bg, 0.3);
  if (contrast(muted, bg) < 3)
    throw new HttpError(
      'INVALID_PARAMETER',
      `colors.muted ${body.colors.muted} on the background has a contrast of ${contrast(muted, bg).toFixed(2)}:1; at least 3:1 is needed`,
    );
  const accent2 = body.colors.accent2 ? hex(body.colors.accent2) : mix(accent, bg, 0.4);
  const palette: Palette = {
    background: bg,
    surface: body.colors.surface ? hex(body.colors.surface) : mix(bg, accent, 0.1),
    text,
    muted,
    accent,
    accent2,
    onAccent,
    chart: [accent, accent2, mix(accent, text, 0.5), mix(accent2, bg, 0.4)],
  };
  const same = (s: string) => ({ en: s, 'zh-Hans': s });
  const spec: ThemeSpec = {
    id: newId('theme'),
    title: same(body.title),
    subtitle: same(body.subtitle ?? ''),
    description: same(body.description ?? ''),
    palette,
    fonts: { heading: body.fonts.heading, body: body.fonts.body },
    background: body.background,
    titleLayout: body.title_layout,
    bulletStyle: body.bullet_style,
  };
  await repo.insertTheme(ctx.db, {
    id: spec.id,
    user_id: userId,
    title: body.title,
    subtitle: body.subtitle ?? '',
    description: body.description ?? '',
    spec: JSON.stringify(spec),
    created_at: ctx.now().toISOString(),
  });
  return toTheme(ctx, spec, 'custom', 'en');
}

/**
 * A custom theme from a PowerPoint template (.pptx/.potx): its colour scheme (light 1 as the
 * background, dark 1 as the text, accents 1 and 2, light 2 as the surface, dark 2 as the muted
 * colour when it reads on the background) and its heading and body fonts, each drawn with a free
 * font (the description says which). Then exactly as a theme made from colours and fonts.
 */
export async function importTheme(
  ctx: AppContext,
  userId: string,
  file: { fileName: string; data: Buffer },
  title: string | undefined,
): Promise<Theme> {
  if (title !== undefined && title.trim().length > 100)
    throw new HttpError('INVALID_PARAMETER', 'title is at most 100 characters');
  let template: TemplateTheme;
  try {
    template = unguard(await runCpuJob('read-template-theme', { data: new Uint8Array(file.data) }, { owner: userId }));
  } catch (err) {
    // Not a template (400) or over a ZIP limit (413), in the surface's error shape.
    if (err instanceof DocumentRefused) throw new HttpError(err.code, `${file.fileName}: ${err.message}`);
    throw err;
  }
  const c = template.colors;
  const fallbackTitle = template.name || file.fileName.replace(/\.(pptx|potx)$/i, '') || 'Imported theme';
  const fonts = [template.fonts.heading, template.fonts.body].map((f) =>
    f.template && f.template !== f.font ? `${f.template} → ${f.font}` : f.font,
  );
  const body = CreateThemeRequest.parse({
    title: title?.trim() || fallbackTitle.slice(0, 100),
    description: `From ${file.fileName} (fonts: ${[...new Set(fonts)].join(', ')})`.slice(0, 1000),
    colors: {
      background: c.lt1,
      text: c.dk1,
      accent: c.accent1,
      accent2: c.accent2,
      surface: c.lt2,
      ...(contrast(hex(c.dk2), hex(c.lt1)) >= 3 ? { muted: c.dk2 } : {}),
    },
    fonts: { heading: template.fonts.heading.font, body: template.fonts.body.font },
  });
  try {
    return await createTheme(ctx, userId, body);
  } catch (err) {
    if (err instanceof HttpError)
      throw new HttpError(err.code, `${file.fileName}: ${err.message}`, { status: err.status });
    throw err;
  }
}

/** Deletes one of the user's custom themes and its preview picture; default themes stay. */
export async function deleteTheme(ctx: AppContext, userId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (DEFAULT_THEMES.some((t) => t.id === id))
    throw new HttpError('INVALID_PARAMETER', `${id} is a default theme; only your own custom themes can be deleted`);
  if (!(await repo.deleteUserTheme(ctx.db, userId, id)))
    throw new HttpError('NOT_FOUND', `no custom theme ${id} of yours`);
  await ctx.files.delete(fileKey('theme-previews', `${id}.png`));
  return { id, deleted: true };
}

/** The theme a deck is written with: a default one, or one of the user's own; undefined when neither. */
export async function resolveTheme(
  ctx: Pick<AppContext, 'db'>,
  userId: string,
  id: string,
): Promise<ThemeSpec | undefined> {
  const d = DEFAULT_THEMES.find((t) => t.id === id);
  if (d) return d;
  const row = await repo.findTheme(ctx.db, id);
  return row && row.user_id === userId ? specOf(row) : undefined;
}

const rendering = new Map<string, Promise<Buffer>>();

/**
 * A theme's preview picture: its sample deck's content slide as LibreOffice draws it, rendered on
 * first request and kept under the files dir. A custom theme's needs the signed link the API hands
 * its owner (checked before the theme is looked up, so a bad link learns nothing of what exists).
 */
export async function themePreview(
  ctx: AppContext,
  id: string,
  link: { expires?: unknown; sig?: unknown },
): Promise<Buffer> {
  const d = DEFAULT_THEMES.find((t) => t.id === id);
  if (!d) requirePageLink(ctx, 'theme-preview', id, link);
  const spec = d ?? (await repo.findTheme(ctx.db, id).then((r) => (r ? specOf(r) : undefined)));
  if (!spec) throw new HttpError('NOT_FOUND', `no theme ${id}`);
  const key = fileKey('theme-previews', `${spec.id}.png`);
  const kept = await ctx.files.get(key);
  if (kept) return kept;
  let job = rendering.get(key);
  if (!job) {
    job = (async () => {
      const deck = sampleDeck(spec.fonts.heading === 'WenQuanYi Micro Hei' ? 'zh-Hans' : 'en');
      const { pptx } = await runCpuJob('write-deck', { deck, theme: spec });
      const pngs = await renderPreviews(Buffer.from(pptx.buffer, pptx.byteOffset, pptx.byteLength), { width: 960 });
      await ctx.files.put(key, pngs[1] ?? pngs[0], 'image/png');
      return pngs[1] ?? pngs[0];
    })().finally(() => rendering.delete(key));
    rendering.set(key, job);
  }
  try {
    return await job;
  } catch (err) {
    if (err instanceof PreviewUnavailable)
      throw new HttpError('SERVICE_UNAVAILABLE', `the preview cannot be drawn here: ${err.message}`, { status: 503 });
    throw err;
  }
}
