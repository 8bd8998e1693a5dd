import { z } from 'zod';
import { strictFields, textInt, trimmedText } from './fields.js';
import { defineRoute } from './route.js';
import { ImageErrorBody, V2ErrorBody } from './errors.js';
import { v2Envelope, v2Page } from './envelopes.js';
import { PAGE_RESPONSES, PAGE_ROUTE_BASE, PageLinkQuery } from './pages.js';

/** Font families a theme may use: free Debian fonts, so measuring equals rendering (docs/decisions.md). */
export const THEME_FONTS = [
  'Lato',
  'Open Sans',
  'Carlito',
  'Caladea',
  'Liberation Sans',
  'Liberation Serif',
  'DejaVu Sans',
  'DejaVu Serif',
  'WenQuanYi Micro Hei',
] as const;
export const THEME_LANGS = ['en', 'zh-Hans'] as const;

const Hex = z.string().regex(/^#?[0-9a-fA-F]{6}$/, 'a colour as 6 hex digits, for example #1F4E79');

/** Theme (spec 2.6) with local additions: type, preview_url, colours, fonts, layout variants. */
export const Theme = z.object({
  id: z.string(),
  title: z.string(),
  subtitle: z.string(),
  description: z.string(),
  type: z.enum(['default', 'custom']),
  preview_url: z.string(),
  colors: z.object({
    background: z.string(),
    surface: z.string(),
    text: z.string(),
    muted: z.string(),
    accent: z.string(),
    accent2: z.string(),
  }),
  fonts: z.object({ heading: z.string(), body: z.string() }),
  background: z.string(),
  title_layout: z.string(),
  bullet_style: z.string(),
});
export type Theme = z.infer<typeof Theme>;

export const ListThemesQuery = z.object({
  lang: z.enum(THEME_LANGS).default('en'),
  /** Omitted: the default themes, then the caller's own. */
  type: z.enum(['default', 'custom']).optional(),
  keyword: z.string().trim().max(200).optional(),
  page: textInt({ min: 1, max: 100_000, default: 1 }),
  size: textInt({ min: 1, max: 100, default: 20 }),
});

export const CreateThemeRequest = strictFields({
  title: trimmedText(100),
  subtitle: z.string().trim().max(200).optional(),
  description: z.string().trim().max(1000).optional(),
  colors: strictFields({
    background: Hex,
    text: Hex,
    accent: Hex,
    accent2: Hex.optional(),
    muted: Hex.optional(),
    surface: Hex.optional(),
  }),
  fonts: strictFields({ heading: z.enum(THEME_FONTS), body: z.enum(THEME_FONTS) }),
  background: z.enum(['solid', 'band-left', 'band-top', 'frame', 'split']).default('solid'),
  title_layout: z.enum(['centered', 'left', 'band']).default('left'),
  bullet_style: z.enum(['dot', 'bar', 'card']).default('dot'),
});
export type CreateThemeRequest = z.infer<typeof CreateThemeRequest>;

/** Unknown fields are refused: a misspelt livedoc_short_id or ai_theme_id would otherwise change the deck. */
export const CreatePptRequest = strictFields({
  query: trimmedText(2000),
  livedoc_short_id: z.string().min(1).max(100).optional(),
  resource_ids: z.array(z.string().min(1).max(100)).max(50).optional(),
  ppt_config: strictFields({
    ai_theme_id: z.string().min(1).max(100).optional(),
    /** Local addition: content slides at most, charts included (fewer when the sources in the deck's language run out; the title and takeaways slides come on top). */
    slide_count: z.number().int().min(1).max(30).optional(),
    /** Local addition: language of the deck's own words (default: en, or zh-Hans for a Chinese query). */
    lang: z.enum(THEME_LANGS).optional(),
  }).optional(),
});
export type CreatePptRequest = z.infer<typeof CreatePptRequest>;

export const CreatePptResult = z.object({
  livedoc_short_id: z.string(),
  ppt_business_id: z.string(),
  task_id: z.string(),
});

const errors = { 400: V2ErrorBody, 401: V2ErrorBody, 403: V2ErrorBody, 404: V2ErrorBody, 502: V2ErrorBody } as const;
const base = { auth: 'bearer-key', family: 'v2', tag: 'slides' } as const;

export const listThemes = defineRoute({
  ...base,
  id: 'slides.themes',
  method: 'GET',
  path: '/v2/ppt-themes',
  summary: 'Slide themes: the defaults and your own',
  query: ListThemesQuery,
  responses: { 200: v2Envelope(v2Page(Theme)), ...errors },
});
export const createTheme = defineRoute({
  ...base,
  id: 'slides.createTheme',
  method: 'POST',
  path: '/v2/ppt-themes',
  summary: 'Create a custom theme from colours and fonts (local addition)',
  body: CreateThemeRequest,
  responses: { 200: v2Envelope(Theme), ...errors },
});
const ThemeParams = z.object({ theme_id: z.string().min(1).max(100) });
export const ThemeDeleted = z.object({ id: z.string(), deleted: z.literal(true) });
export const deleteTheme = defineRoute({
  ...base,
  id: 'slides.deleteTheme',
  method: 'DELETE',
  path: '/v2/ppt-themes/{theme_id}',
  summary: 'Delete one of your custom themes (local addition; decks already written keep their look)',
  params: ThemeParams,
  responses: { 200: v2Envelope(ThemeDeleted), ...errors },
});
/** Multipart: one .pptx/.potx part named `file`, and an optional title (default: the template's theme name). */
export const ImportThemeForm = { files: { file: 1 }, fields: ['title'] } as const;
export const importTheme = defineRoute({
  ...base,
  id: 'slides.importTheme',
  method: 'POST',
  path: '/v2/ppt-themes/import',
  summary: "Create a custom theme from a PowerPoint template's colours and fonts (local addition)",
  bodyType: 'multipart',
  form: ImportThemeForm,
  responses: { 200: v2Envelope(Theme), ...errors, 413: V2ErrorBody },
});
export const createPpt = defineRoute({
  ...base,
  id: 'slides.create',
  method: 'POST',
  path: '/v2/ppts',
  summary: 'Start a slide deck task over a LiveDoc',
  body: CreatePptRequest,
  responses: { 200: v2Envelope(CreatePptResult), ...errors },
});

/** The platform's pages and pictures are opened by browsers: no credentials, signed or public (docs/decisions.md). */
const png = { contentType: 'image/png', description: 'a PNG picture' };
export const themePreview = defineRoute({
  id: 'slides.themePreview',
  method: 'GET',
  path: '/slides/themes/{theme_id}/preview.png',
  auth: 'none',
  family: 'image',
  tag: 'slides',
  summary:
    "A theme's preview picture: its sample deck's content slide, rendered by LibreOffice (a custom theme's: the signed link in its preview_url)",
  params: z.object({ theme_id: z.string().min(1).max(100) }),
  query: PageLinkQuery,
  responses: { 200: png, 403: ImageErrorBody, 404: ImageErrorBody, 503: ImageErrorBody },
});

const BizParams = z.object({ biz_id: z.string().min(1).max(100) });

/** The slide viewer behind ppt_url (signed link, purpose slides); its pictures and download carry the same signature. */
export const slideViewer = defineRoute({
  ...PAGE_ROUTE_BASE,
  id: 'pages.slides',
  path: '/slides/{biz_id}',
  summary:
    "A deck's slide previews in order (or the slides' text without previews), with the .pptx download (signed link)",
  params: BizParams,
  query: PageLinkQuery,
  responses: PAGE_RESPONSES,
});
export const slidePreview = defineRoute({
  ...PAGE_ROUTE_BASE,
  id: 'pages.slidePreview',
  path: '/slides/{biz_id}/previews/{n}',
  summary: 'The PNG preview of slide n (from 1) of a deck (signed link of the viewer)',
  params: BizParams.extend({ n: textInt({ min: 1, max: 10_000 }) }),
  query: PageLinkQuery,
  responses: { 200: png, 403: PAGE_RESPONSES[403], 404: PAGE_RESPONSES[404], 409: PAGE_RESPONSES[409] },
});
export const slideDeckFile = defineRoute({
  ...PAGE_ROUTE_BASE,
  id: 'pages.slideDeck',
  path: '/slides/{biz_id}/deck.pptx',
  summary: "The deck's .pptx file (signed link of the viewer)",
  params: BizParams,
  query: PageLinkQuery,
  responses: {
    200: {
      contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      description: 'the deck',
    },
    // With an object store: a short-lived presigned URL of the deck there.
    302: null,
    403: PAGE_RESPONSES[403],
    404: PAGE_RESPONSES[404],
    409: PAGE_RESPONSES[409],
  },
});

export const slideRoutes = [
  listThemes,
  createTheme,
  importTheme,
  deleteTheme,
  createPpt,
  themePreview,
  slideDeckFile,
  slidePreview,
  slideViewer,
];
