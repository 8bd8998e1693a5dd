import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { htmlToMarkdown, withHeaderRows } from './html-markdown.js';
import { boldIndentedTerms } from './indented-terms.js';
import { BOILERPLATE_SELECTOR, dropBoilerplateLines } from './boilerplate.js';
import { checkHtml } from './html-guard.js';
import { unwrapLayoutTables } from './layout-tables.js';
import { gridTables } from './table-grid.js';
import { DocumentRefused } from './limits.js';
import {
  absolute,
  imagesOf,
  linksOf,
  structuredTypes,
  summarizeLinks,
  type LinksSummary,
  type PageImage,
  type PageLink,
} from './page-lists.js';

export type OutputFormat = 'html' | 'text' | 'markdown';
/** `article`: main content, falling back to the whole page when too little is kept; `strict`: main content or a failure. */
export type ReadabilityMode = 'off' | 'article' | 'strict';

/** What to make of one HTML document: the options of spec 4.6 that do not concern fetching. */
export interface ShapeOptions {
  format: OutputFormat;
  readability: ReadabilityMode;
  targetSelector?: string;
  links?: boolean;
  linksSummary?: boolean;
  images?: boolean;
  imagesSummary?: boolean;
  /** Images from the main content (Readability's article) only, instead of the whole page. */
  imagesReadability?: boolean;
  ignoreEmptyTextImage?: boolean;
  stypes?: boolean;
  /** Tags whose elements alone are kept (batch scrape includeTags), then excludeTags are removed. */
  includeTags?: string[];
  excludeTags?: string[];
}

export interface ShapedPage {
  title: string;
  description: string;
  content: string;
  /** The main-content extraction actually used: a fallback to the whole page says so here and in warnings. */
  readability: 'off' | 'article' | 'fallback';
  excerpt: string;
  links?: PageLink[];
  links_summary?: LinksSummary;
  images?: PageImage[];
  images_summary?: { total: number; with_text: number; without_text: number };
  stypes?: string[];
  warnings: string[];
}

/** The reasons shaping can refuse a page; the caller turns them into its surface's error. */
export type ShapeOutcome =
  | { ok: true; page: ShapedPage }
  | {
      ok: false;
      reason: 'selector-miss' | 'invalid-selector' | 'no-main-content' | 'too-complex';
      message: string;
      limit?: string;
    };

/** Below this many characters of text, Readability's article is "too little" and the page is used instead. */
export const MIN_ARTICLE_CHARS = 140;
const DROPPED = 'script, style, noscript, template, iframe, object, embed';

type Doc = ReturnType<typeof parseHTML>['document'];
type El = Element;

/**
 * THE HTML extraction of the platform (web extract, LiveDoc URL add, project sites, batch scrape):
 * parse with linkedom, optionally narrow to a CSS selector or to Readability's main content, and
 * write the result as HTML, text or Markdown with the link, image and structured-data lists asked
 * for. Pure and synchronous: it runs in a CPU worker (workers/jobs.ts 'shape-html').
 */
export function shapeHtml(input: string, pageUrl: string, o: ShapeOptions): ShapeOutcome {
  try {
    checkHtml(input);
  } catch (err) {
    if (err instanceof DocumentRefused)
      return { ok: false, reason: 'too-complex', message: err.message, limit: err.limit };
    throw err;
  }
  // Before Readability, which drops the indents that mark a man page's terms.
  const html = o.format === 'html' ? input : boldIndentedTerms(input);
  const document = parseDocument(html);
  const warnings: string[] = [];
  const title =
    (document.querySelector('title')?.textContent ?? '').trim() ||
    (document.querySelector('h1')?.textContent ?? '').trim();
  const description = (document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '').trim();
  // Structured data lives in scripts, which are dropped below: read it first.
  const stypes = o.stypes ? structuredTypes(document) : undefined;
  for (const el of document.querySelectorAll(DROPPED)) el.remove();
  // Event handlers only matter where HTML is handed back; walking every element costs time otherwise.
  if (o.format === 'html') {
    for (const el of document.querySelectorAll('*')) {
      for (const attr of [...(el.attributes ?? [])]) if (/^on/i.test(attr.name)) el.removeAttribute(attr.name);
    }
  }
  const whole = document.body ?? document.documentElement;

  let root: El = whole;
  let mode: ShapedPage['readability'] = 'off';
  let excerpt = '';
  let articleImagesRoot: El | null = null;
  if (o.targetSelector) {
    let found: El | null;
    try {
      found = document.querySelector(o.targetSelector);
    } catch (err) {
      return {
        ok: false,
        reason: 'invalid-selector',
        message: `target_selector ${JSON.stringify(o.targetSelector)} is not a valid CSS selector: ${(err as Error).message}`,
      };
    }
    if (!found)
      return {
        ok: false,
        reason: 'selector-miss',
        message: `target_selector ${JSON.stringify(o.targetSelector)} matches no element on the page`,
      };
    root = found;
    if (o.readability !== 'off')
      warnings.push('with_readability is not applied when target_selector picks the element');
  } else if (o.readability !== 'off' || o.imagesReadability) {
    const article = readArticle(html);
    const usable = article && article.text.trim().length >= MIN_ARTICLE_CHARS;
    if (article) articleImagesRoot = parseHTML(`<html><body>${article.content}</body></html>`).document.body;
    if (o.readability !== 'off') {
      if (usable) {
        root = articleImagesRoot!;
        mode = 'article';
        excerpt = article.excerpt;
      } else if (o.readability === 'strict') {
        return {
          ok: false,
          reason: 'no-main-content',
          message: `readability found no main content (fewer than ${MIN_ARTICLE_CHARS} characters of article text)`,
        };
      } else {
        mode = 'fallback';
        warnings.push(
          `readability kept too little (fewer than ${MIN_ARTICLE_CHARS} characters); the cleaned whole page is returned`,
        );
      }
    }
  }
  if (o.includeTags?.length) root = keepOnly(root, o.includeTags);
  if (o.excludeTags?.length) for (const el of root.querySelectorAll(o.excludeTags.join(','))) el.remove();
  // Main content asked for: navigation, banners and footers Readability left (or the fallback kept) go.
  const mainContent = mode !== 'off';
  if (mainContent) for (const el of [...root.querySelectorAll(BOILERPLATE_SELECTOR)]) el.remove();

  // A picked element is part of what was asked for (its own tag and heading level included).
  let content = render(root, o.format, Boolean(o.targetSelector) && !o.includeTags?.length, pageUrl);
  if (mainContent && o.format !== 'html') content = dropBoilerplateLines(content);
  const page: ShapedPage = { title, description, content, readability: mode, excerpt, warnings };
  if (o.links || o.linksSummary) {
    const links = linksOf(root, pageUrl);
    if (o.links) page.links = links;
    if (o.linksSummary) page.links_summary = summarizeLinks(links, pageUrl);
  }
  if (o.images || o.imagesSummary) {
    let images = imagesOf(o.imagesReadability ? (articleImagesRoot ?? root) : root, pageUrl);
    if (o.ignoreEmptyTextImage) images = images.filter((i) => i.alt.trim() || i.title.trim());
    if (o.images) page.images = images;
    if (o.imagesSummary) {
      const withText = images.filter((i) => i.alt.trim() || i.title.trim()).length;
      page.images_summary = { total: images.length, with_text: withText, without_text: images.length - withText };
    }
  }
  if (stypes) page.stypes = stypes;
  return { ok: true, page };
}

/**
 * A document with an <html> root: linkedom gives none for a fragment or bare text ("hello", an
 * empty body), and its body getter then throws; such a page is read as the body of one.
 */
function parseDocument(html: string): Doc {
  const { document } = parseHTML(html);
  if (document.documentElement?.tagName === 'HTML') return document;
  return parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`).document;
}

function readArticle(html: string): { content: string; text: string; excerpt: string } | null {
  // Readability mutates its document: it gets a fresh one.
  const document = parseDocument(html);
  for (const el of document.querySelectorAll(DROPPED)) el.remove();
  // A cookie banner or a menu must not be what Readability takes for the article.
  for (const el of [...document.querySelectorAll(BOILERPLATE_SELECTOR)]) el.remove();
  try {
    const a = new Readability(document, { charThreshold: 100 }).parse();
    if (!a?.content) return null;
    return { content: a.content, text: a.textContent ?? '', excerpt: (a.excerpt ?? '').trim() };
  } catch {
    // Readability throws on some malformed documents; the caller falls back to the page.
    return null;
  }
}

function keepOnly(root: El, tags: string[]): El {
  const { document } = parseHTML('<html><body></body></html>');
  const picked = [...root.querySelectorAll(tags.join(','))].filter(
    (el, _i, all) => !all.some((other) => other !== el && other.contains(el)),
  );
  document.body.innerHTML = picked.map((el) => el.outerHTML).join('\n');
  return document.body;
}

function render(root: El, format: OutputFormat, withOwnTag: boolean, pageUrl: string): string {
  // Links and images point where they pointed on the page, wherever the text is read.
  if (pageUrl) absolutize(root, pageUrl);
  const html = withOwnTag ? root.outerHTML : root.innerHTML;
  if (format === 'html') return html.trim();
  if (format === 'markdown') return htmlToMarkdown(html);
  unwrapLayoutTables(root);
  gridTables(root);
  withHeaderRows(root);
  return textOf(root);
}

function absolutize(root: El, base: string): void {
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of root.querySelectorAll(selector)) {
      const value = el.getAttribute(attr);
      if (!value || value.startsWith('#')) continue;
      const url = absolute(value, base);
      if (url) el.setAttribute(attr, url);
    }
  }
}

const BLOCK =
  /^(P|DIV|SECTION|ARTICLE|MAIN|HEADER|FOOTER|ASIDE|NAV|H[1-6]|LI|UL|OL|TR|TABLE|BLOCKQUOTE|PRE|FIGURE|FIGCAPTION|BR|HR|DT|DD)$/;

/** linkedom's nodes are no instances of a global Element: the node type says what a node is. */
const isElement = (node: Node): node is Element => node.nodeType === 1;

/** Readable plain text: blocks on their own lines, runs of spaces collapsed; a table row is one line, its cells tab-separated. */
function textOf(root: El): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) parts.push((node.textContent ?? '').replace(/\s+/g, ' '));
    else if (isElement(node) && node.tagName === 'TR') {
      const cells = [...node.childNodes].filter((c) => isElement(c) && (c.tagName === 'TD' || c.tagName === 'TH'));
      parts.push('\n' + cells.map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()).join('\t') + '\n');
    } else if (isElement(node)) {
      const block = BLOCK.test(node.tagName);
      if (block) parts.push('\n');
      for (const child of node.childNodes) walk(child);
      if (block) parts.push('\n');
    }
  };
  for (const child of root.childNodes) walk(child);
  return parts
    .join('')
    .split('\n')
    .map((l) => l.replace(/^ +| +$/g, ''))
    .filter((l) => l.trim())
    .join('\n');
}
