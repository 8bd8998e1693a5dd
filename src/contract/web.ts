import { z } from 'zod';
import { defineRoute } from './route.js';
import { V2ErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';
import { absoluteUrl, trimmedText } from './fields.js';

/** An absolute http(s) URL; anything else is refused before a fetch is tried. */
export const HttpUrl = absoluteUrl(['http:', 'https:'], 'must be an absolute http or https URL');

/** A cookie sent with the fetch: `NAME=VALUE` or `{name, value}` (see docs/decisions.md). */
const CookieName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'must be a cookie name (RFC 6265 token)');
const CookieValue = z
  .string()
  .max(4096)
  .regex(/^[^;\r\n]*$/, 'must not contain ";" or line breaks');
export const SetCookie = z.union([
  z
    .string()
    .regex(/^[^=;\s]+=[^;\r\n]*$/, 'must be NAME=VALUE')
    .max(4400),
  z.object({ name: CookieName, value: CookieValue }),
]);

/**
 * with_readability (spec 4.6, "boolean or string"): true or "article" keeps the main content and
 * falls back to the cleaned page when Readability keeps too little (with a warning); "strict" keeps
 * the main content or fails; false or "off" keeps the whole cleaned page.
 */
export const ReadabilityOption = z.union([z.boolean(), z.enum(['article', 'strict', 'off'])]);

export const WebExtractRequest = z.object({
  url: HttpUrl,
  crawl_mode: z.enum(['fast', 'fine']).default('fast'),
  output_format: z.enum(['html', 'text', 'markdown']).default('html'),
  with_readability: ReadabilityOption.optional(),
  with_links_summary: z.boolean().optional(),
  with_images_summary: z.boolean().optional(),
  with_images_readability: z.boolean().optional(),
  with_images: z.boolean().optional(),
  with_links: z.boolean().optional(),
  ignore_empty_text_image: z.boolean().optional(),
  target_selector: trimmedText(1000).optional(),
  wait_for_selector: trimmedText(1000).optional(),
  set_cookies: z.array(SetCookie).max(50).optional(),
  user_agent: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[^\r\n]*$/, 'must be one line')
    .optional(),
  /** Milliseconds for the whole load (local bounds: 1000-120000, default 15000 fast / 30000 fine). */
  timeout: z.number().int().min(1000).max(120_000).optional(),
  with_cache: z.boolean().default(true),
  with_stypes: z.boolean().default(false),
});
export type WebExtractRequest = z.infer<typeof WebExtractRequest>;

const Link = z.object({ url: z.string(), text: z.string() });
const Image = z.object({
  url: z.string(),
  alt: z.string(),
  title: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});

/** Spec 2.12: passed through from the extractor, may grow; content is a string or an object. */
export const WebExtractData = z
  .object({
    url: z.string(),
    final_url: z.string(),
    title: z.string(),
    description: z.string(),
    content: z.union([z.string(), z.record(z.string(), z.unknown())]),
    output_format: z.enum(['html', 'text', 'markdown']),
    crawl_mode: z.enum(['fast', 'fine']),
    readability: z.enum(['off', 'article', 'fallback']),
    links: z.array(Link).optional(),
    links_summary: z
      .object({
        total: z.number().int(),
        internal: z.number().int(),
        external: z.number().int(),
        domains: z.array(z.object({ domain: z.string(), count: z.number().int() })),
      })
      .optional(),
    images: z.array(Image).optional(),
    images_summary: z
      .object({ total: z.number().int(), with_text: z.number().int(), without_text: z.number().int() })
      .optional(),
    stypes: z.array(z.string()).optional(),
    warnings: z.array(z.string()),
    cached: z.boolean(),
    fetched_at: z.string(),
  })
  .loose();
export type WebExtractData = z.infer<typeof WebExtractData>;

const errors = { 400: V2ErrorBody, 401: V2ErrorBody, 403: V2ErrorBody, 500: V2ErrorBody } as const;

export const webExtract = defineRoute({
  id: 'web.extract',
  method: 'POST',
  path: '/v2/web/extract',
  auth: 'bearer-key',
  family: 'v2',
  tag: 'web',
  summary: 'Extract one web page (fast HTTP fetch or fine Chromium crawl)',
  body: WebExtractRequest,
  validationCode: 'WEB_EXTRACT_FAILED',
  responses: { 200: v2Envelope(WebExtractData), ...errors },
});

export const webRoutes = [webExtract];
