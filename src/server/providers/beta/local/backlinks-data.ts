import type { BacklinkItem } from '../../../../contract/beta-seo.js';
import type { FieldTable } from '../filter-compiler.js';
import { DATA_DATE, TLDS, WORDS, int, pick, providerDate, rng, rowRng, seedOf } from '../seeded.js';

/**
 * The local backlink store: a target's backlinks are generated from a hash of the target, row by
 * row, so the same target always has the same list (spec "deterministic and consistent"). Referring
 * domains come from a per-target pool whose properties (IP, country, rank, platform) derive from the
 * domain name, so one domain looks the same in every row and every target.
 */

export interface Target {
  /** What the caller asked for, normalised: a domain, or a page URL. */
  subject: string;
  /** The domain the links point to. */
  domain: string;
  /** Set when the target is one page. */
  pageUrl: string | null;
}

/** A row as generated, with the facts the request's switches need. */
export interface StoredBacklink extends BacklinkItem {
  /** The link comes from the target's own site. */
  internal: boolean;
  /** The link points to a subdomain of the target, not the target itself. */
  to_subdomain: boolean;
}

export const BACKLINK_FIELDS: FieldTable = {
  domain_from: 'string',
  domain_from_country: 'string',
  domain_from_ip: 'string',
  domain_from_is_ip: 'boolean',
  domain_from_platform_type: 'string[]',
  domain_from_rank: 'number',
  page_from_rank: 'number',
  rank: 'number',
  backlink_spam_score: 'number',
  url_from: 'string',
  url_from_https: 'boolean',
  domain_to: 'string',
  url_to: 'string',
  url_to_https: 'boolean',
  tld_from: 'string',
  url_to_status_code: 'number',
  url_to_spam_score: 'number',
  url_to_redirect_target: 'string',
  page_from_title: 'string',
  page_from_encoding: 'string',
  page_from_language: 'string',
  page_from_size: 'number',
  page_from_status_code: 'number',
  page_from_external_links: 'number',
  page_from_internal_links: 'number',
  first_seen: 'date',
  prev_seen: 'date',
  last_seen: 'date',
  item_type: 'string',
  attributes: 'string[]',
  dofollow: 'boolean',
  original: 'boolean',
  is_new: 'boolean',
  is_lost: 'boolean',
  is_broken: 'boolean',
  is_indirect_link: 'boolean',
  alt: 'string',
  image_url: 'string',
  anchor: 'string',
  text_pre: 'string',
  text_post: 'string',
  semantic_location: 'string',
  links_count: 'number',
};

const DOMAIN_RE = /^(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;

/** Parses `target`; null when it is neither a bare domain nor an absolute http(s) URL. */
export function parseTarget(raw: string): Target | null {
  const t = raw.trim();
  if (/^https?:\/\//i.test(t)) {
    try {
      const u = new URL(t);
      const domain = u.hostname.toLowerCase().replace(/^www\./, '');
      return DOMAIN_RE.test(domain) ? { subject: u.href, domain, pageUrl: u.href } : null;
    } catch {
      return null;
    }
  }
  const domain = t.toLowerCase();
  if (domain.startsWith('www.') || !DOMAIN_RE.test(domain)) return null;
  return { subject: domain, domain, pageUrl: null };
}

const PLATFORMS = ['cms', 'blogs', 'ecommerce', 'message-boards', 'wikis', 'news', 'organization'] as const;
const COUNTRIES = ['US', 'US', 'US', 'DE', 'GB', 'FR', 'NL', 'CA', 'AU', 'IN', 'BR', 'JP', 'ES', 'IT'];
const LANGS = ['en', 'en', 'en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'ja'];
const SUBDOMAINS = ['blog', 'shop', 'docs', 'news'];
const SECTIONS = ['article', 'blog', 'news', 'guide', 'review', 'forum', 'wiki', 'resources'];
const SEMANTIC = ['article', 'section', 'main', 'aside', 'footer', 'header', 'nav'];
const ANCHOR_TAILS = [
  'review',
  'guide',
  'homepage',
  'pricing',
  'tutorial',
  'alternatives',
  'official site',
  'docs',
  'blog post',
  'comparison',
];

interface Referrer {
  domain: string;
  mainDomain: string;
  ip: string;
  country: string | null;
  rank: number;
  platforms: string[];
  https: boolean;
  language: string;
}

/** A referring domain's own facts, the same wherever it appears. */
function referrer(name: string, main: string): Referrer {
  const r = rng(seedOf('referrer', name));
  const platforms = PLATFORMS.filter(() => r() < 0.22);
  return {
    domain: name,
    mainDomain: main,
    ip: `${int(r, 11, 223)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    country: r() < 0.05 ? null : pick(r, COUNTRIES),
    rank: Math.floor(1000 * r() ** 2.2),
    platforms: platforms.length ? platforms : [pick(r, PLATFORMS)],
    https: r() < 0.85,
    language: pick(r, LANGS),
  };
}

interface PoolEntry {
  domain: string;
  mainDomain: string;
}

function referrerPool(seed: number, size: number): PoolEntry[] {
  const pool: PoolEntry[] = [];
  const seen = new Set<string>();
  for (let j = 0; pool.length < size; j++) {
    const r = rowRng(seed ^ 0x5bd1e995, j);
    const main = `${pick(r, WORDS)}${pick(r, WORDS)}${r() < 0.3 ? int(r, 2, 99) : ''}.${pick(r, TLDS)}`;
    const name = r() < 0.2 ? `${pick(r, ['blog', 'news', 'forum', 'en', 'shop'])}.${main}` : main;
    if (seen.has(name)) continue;
    seen.add(name);
    pool.push({ domain: name, mainDomain: main });
  }
  return pool;
}

/** How many backlinks a subject has: skewed, most have hundreds, a few thousands. */
export function backlinkCount(target: Target): number {
  const r = rng(seedOf('backlink-count', target.subject));
  return target.pageUrl ? 5 + Math.floor(300 * r() ** 3) : 20 + Math.floor(4000 * r() ** 3);
}

const DAY = 86_400_000;

/**
 * The facts of row i that the switches and the whois counts need (who links, from which page, is
 * it internal, lost, dofollow), drawn from their own generator so they can be had without the rest.
 */
export interface BacklinkCore {
  internal: boolean;
  from: PoolEntry;
  toSub: boolean;
  subdomain: string;
  isLost: boolean;
  dofollow: boolean;
  /** url_from without its scheme. */
  page: string;
}

export interface BacklinkSet {
  seed: number;
  count: number;
  pool: PoolEntry[];
  own: PoolEntry;
}

export function backlinkSet(target: Target, count = backlinkCount(target)): BacklinkSet {
  const seed = seedOf('backlinks', target.subject);
  const poolSize = Math.max(2, Math.floor(count * (0.12 + 0.4 * rng(seed)())));
  return { seed, count, pool: referrerPool(seed, poolSize), own: { domain: target.domain, mainDomain: target.domain } };
}

export function backlinkCore(target: Target, set: BacklinkSet, i: number): BacklinkCore {
  const r = rowRng(set.seed, i);
  const internal = !target.pageUrl && r() < 0.05;
  const from = internal ? set.own : set.pool[Math.floor(r() ** 1.6 * set.pool.length)];
  const toSub = !target.pageUrl && r() < 0.15;
  const subdomain = pick(r, SUBDOMAINS);
  const isLost = r() < 0.1;
  const dofollow = r() < 0.7;
  const page = `${from.domain}/${pick(r, SECTIONS)}/${pick(r, WORDS)}-${pick(r, WORDS)}-${int(r, 1, 9999)}`;
  return { internal, from, toSub, subdomain, isLost, dofollow, page };
}

/** Every stored backlink of a target, in generation order (which breaks ties in any ordering). */
export function generateBacklinks(target: Target, count = backlinkCount(target)): StoredBacklink[] {
  return [...backlinkRows(target, count)];
}

/** The same rows one at a time, so a long list (a benchmark's million) need not be held whole. */
export function* backlinkRows(target: Target, count = backlinkCount(target)): Generator<StoredBacklink> {
  const set = backlinkSet(target, count);
  const referrers = new Map<string, Referrer>();
  const detailSeed = (set.seed ^ 0xa5a5a5a5) >>> 0;
  const brand = target.domain.split('.')[0];
  for (let i = 0; i < count; i++) {
    const core = backlinkCore(target, set, i);
    const { internal, toSub, isLost, dofollow } = core;
    let from = referrers.get(core.from.domain);
    if (!from) {
      from = referrer(core.from.domain, core.from.mainDomain);
      referrers.set(from.domain, from);
    }
    const r = rowRng(detailSeed, i);
    const domainTo = toSub ? `${core.subdomain}.${target.domain}` : target.domain;
    const urlTo =
      target.pageUrl ??
      `https://${domainTo}/${r() < 0.4 ? '' : `${pick(r, SECTIONS)}/${pick(r, WORDS)}-${pick(r, WORDS)}`}`;
    const slug = core.page.slice(core.page.lastIndexOf('/') + 1);
    const urlFrom = `${from.https ? 'https' : 'http'}://${core.page}`;
    const ageDays = int(r, 1, 3650);
    const firstSeen = DATA_DATE - ageDays * DAY - int(r, 0, 86_399) * 1000;
    const lastSeen = isLost
      ? firstSeen + Math.floor(r() * (DATA_DATE - firstSeen) * 0.9)
      : DATA_DATE - int(r, 0, Math.min(ageDays, 30)) * DAY;
    const prevSeen = r() < 0.15 ? null : Math.max(firstSeen, lastSeen - int(r, 1, 60) * DAY);
    const itemRoll = r();
    const itemType =
      itemRoll < 0.8
        ? 'anchor'
        : itemRoll < 0.9
          ? 'image'
          : itemRoll < 0.94
            ? 'redirect'
            : itemRoll < 0.97
              ? 'canonical'
              : itemRoll < 0.99
                ? 'alternate'
                : 'meta';
    const attributes = dofollow
      ? r() < 0.1
        ? ['noopener']
        : null
      : r() < 0.3
        ? ['nofollow', 'ugc']
        : r() < 0.2
          ? ['sponsored']
          : ['nofollow'];
    const anchor =
      itemType === 'anchor' ? (r() < 0.3 ? brand : r() < 0.2 ? urlTo : `${brand} ${pick(r, ANCHOR_TAILS)}`) : null;
    const indirect = itemType === 'redirect' || itemType === 'canonical';
    const pageRank = Math.min(1000, Math.floor(from.rank * (0.3 + 0.7 * r())));
    const isBroken = r() < 0.03;
    const crawled = r() < 0.9;
    yield {
      type: 'backlink',
      domain_from: from.domain,
      domain_from_country: from.country,
      domain_from_ip: from.ip,
      domain_from_is_ip: false,
      domain_from_platform_type: from.platforms,
      domain_from_rank: from.rank,
      page_from_rank: pageRank,
      rank: Math.min(1000, Math.floor(pageRank * 0.6 + from.rank * 0.4)),
      backlink_spam_score: Math.floor(100 * r() ** 3),
      url_from: urlFrom,
      url_from_https: from.https,
      domain_to: domainTo,
      url_to: urlTo,
      url_to_https: urlTo.startsWith('https:'),
      tld_from: from.mainDomain.slice(from.mainDomain.indexOf('.') + 1),
      url_to_status_code: isBroken ? 404 : itemType === 'redirect' ? 301 : 200,
      url_to_spam_score: crawled ? Math.floor(60 * r() ** 3) : null,
      url_to_redirect_target: itemType === 'redirect' ? `https://${domainTo}/` : null,
      page_from_title:
        r() < 0.05 ? null : `${pick(r, WORDS)} ${pick(r, WORDS)} ${pick(r, SECTIONS)} | ${from.mainDomain}`,
      page_from_encoding: 'utf-8',
      page_from_language: from.language,
      page_from_size: int(r, 8_000, 900_000),
      page_from_status_code: 200,
      page_from_external_links: int(r, 1, 250),
      page_from_internal_links: int(r, 5, 400),
      first_seen: providerDate(firstSeen),
      prev_seen: prevSeen === null ? null : providerDate(prevSeen),
      last_seen: providerDate(lastSeen),
      item_type: itemType,
      attributes,
      dofollow,
      original: ageDays > 365 && r() < 0.5,
      is_new: ageDays <= 30,
      is_lost: isLost,
      is_broken: isBroken,
      is_indirect_link: indirect,
      indirect_link_path: indirect
        ? [
            {
              type: itemType === 'redirect' ? 'redirect' : 'canonical',
              status_code: itemType === 'redirect' ? 301 : 200,
              url: urlTo,
            },
          ]
        : null,
      alt: itemType === 'image' ? `${brand} logo` : null,
      image_url: itemType === 'image' ? `https://${from.domain}/images/${slug}.png` : null,
      anchor,
      text_pre: itemType === 'anchor' ? `${pick(r, WORDS)} ${pick(r, WORDS)}` : null,
      text_post: itemType === 'anchor' ? `${pick(r, WORDS)} ${pick(r, WORDS)}` : null,
      semantic_location: r() < 0.1 ? null : pick(r, SEMANTIC),
      links_count: r() < 0.85 ? 1 : int(r, 2, 5),
      group_count: 1,
      internal,
      to_subdomain: toSub,
    };
  }
}

/** Fields whose values follow rank_scale (stored on the 0-1000 scale). */
export const SCALED_FIELDS: ReadonlySet<string> = new Set(['rank', 'domain_from_rank', 'page_from_rank']);

/** A rank on the requested scale. */
export function scaleRank(rank: number, scale: 'one_hundred' | 'one_thousand'): number {
  return scale === 'one_thousand' ? rank : Math.round(rank / 10);
}
