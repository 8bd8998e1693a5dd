/**
 * What a shaped page lists beside its content (shape-html.ts): its links and their summary, its
 * images, and the schema types it declares. Links and images are absolute http(s) URLs, each once.
 */
export interface PageLink {
  url: string;
  text: string;
}
export interface PageImage {
  url: string;
  alt: string;
  title: string;
  width: number | null;
  height: number | null;
}
export interface LinksSummary {
  total: number;
  internal: number;
  external: number;
  domains: Array<{ domain: string; count: number }>;
}

/** The link as an absolute http(s) URL against the page's, or null (another scheme, not a URL). */
export function absolute(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The page's links, absolute and each once, with their text. */
export function linksOf(root: ParentNode, base: string): PageLink[] {
  const out: PageLink[] = [];
  const seen = new Set<string>();
  for (const a of root.querySelectorAll('a[href]')) {
    const url = absolute(a.getAttribute('href'), base);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    out.push({ url, text: (a.textContent ?? '').replace(/\s+/g, ' ').trim() });
  }
  return out;
}

export function summarizeLinks(links: PageLink[], base: string): LinksSummary {
  const host = new URL(base).host;
  const domains = new Map<string, number>();
  let internal = 0;
  for (const l of links) {
    const h = new URL(l.url).host;
    if (h === host) internal++;
    domains.set(h, (domains.get(h) ?? 0) + 1);
  }
  return {
    total: links.length,
    internal,
    external: links.length - internal,
    domains: [...domains.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([domain, count]) => ({ domain, count })),
  };
}

/** The page's images, absolute and each once, with their text and declared size. */
export function imagesOf(root: ParentNode, base: string): PageImage[] {
  const out: PageImage[] = [];
  const seen = new Set<string>();
  for (const img of root.querySelectorAll('img')) {
    const url = absolute(img.getAttribute('src') ?? img.getAttribute('data-src'), base);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const dim = (name: string) => {
      const n = Number(img.getAttribute(name));
      return Number.isFinite(n) && n > 0 ? n : null;
    };
    out.push({
      url,
      alt: (img.getAttribute('alt') ?? '').trim(),
      title: (img.getAttribute('title') ?? '').trim(),
      width: dim('width'),
      height: dim('height'),
    });
  }
  return out;
}

/** Schema types the page declares: JSON-LD @type, microdata itemtype, Open Graph og:type. */
export function structuredTypes(document: ParentNode): string[] {
  const types = new Set<string>();
  const addType = (t: unknown) => {
    if (typeof t === 'string' && t.trim()) types.add(t.trim());
    else if (Array.isArray(t)) t.forEach(addType);
  };
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (v && typeof v === 'object') {
      addType((v as Record<string, unknown>)['@type']);
      if (Array.isArray((v as Record<string, unknown>)['@graph'])) visit((v as Record<string, unknown>)['@graph']);
    }
  };
  for (const s of document.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      visit(JSON.parse(s.textContent ?? ''));
    } catch {
      // A broken JSON-LD block declares nothing.
    }
  }
  for (const el of document.querySelectorAll('[itemtype]'))
    for (const t of (el.getAttribute('itemtype') ?? '').split(/\s+/))
      addType(t.replace(/^https?:\/\/schema\.org\//, ''));
  const og = document.querySelector('meta[property="og:type"]')?.getAttribute('content');
  if (og) types.add(`og:${og.trim()}`);
  return [...types];
}
