import { TRAFFIC_MAX_ROWS, type TrafficQuery, type TrafficResult } from '../../../../contract/beta-traffic.js';
import { DATA_DATE, WORDS, int, pick, rng, rowRng, seedOf } from '../seeded.js';

/**
 * Local landing-page traffic: a domain's pages and their monthly clicks derive from a hash of the
 * domain, page and month, so a range's clicks are the sum of its months, the same on every call.
 */

const SECTIONS = ['', 'blog', 'pricing', 'docs', 'products', 'about', 'guides', 'compare', 'features', 'support'];
const FEATURES = ['featured_snippet', 'people_also_ask', 'sitelinks', 'video', 'images', 'reviews', 'local_pack'];
const SUBDOMAINS = ['blog', 'docs', 'shop'];

interface Page {
  url: string;
  main: boolean;
  weight: number;
  mobile: number;
  keywords: number;
  topKeyword: string;
  features: string[];
}

function pages(domain: string): Page[] {
  const seed = seedOf('traffic-pages', domain);
  const n = int(rng(seed), 8, 60);
  const brand = domain.split('.')[0];
  const seen = new Set<string>();
  return Array.from({ length: n }, (_, i) => {
    const r = rowRng(seed, i);
    const sub = i > 0 && r() < 0.2 ? `${pick(r, SUBDOMAINS)}.` : '';
    const section = i === 0 ? '' : pick(r, SECTIONS);
    const slug = section ? `/${section}/${pick(r, WORDS)}-${pick(r, WORDS)}` : '/';
    // A URL is one page: a repeated one gets the row number, so rows never share a URL.
    let url = `https://${sub}${domain}${slug}`;
    if (seen.has(url)) url = `${url.replace(/\/$/, '')}/${i}`;
    seen.add(url);
    return {
      url,
      main: sub === '',
      weight: i === 0 ? 1 : 0.6 * r() ** 2,
      mobile: 0.3 + 0.5 * r(),
      keywords: int(r, 5, 5000),
      topKeyword: section ? `${brand} ${section}` : brand,
      features: FEATURES.filter(() => r() < 0.2),
    };
  });
}

const months = (from: string, to: string): string[] => {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  while (y < ty || (y === ty && m <= tm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m += 1;
    if (m > 12) [y, m] = [y + 1, 1];
  }
  return out;
};

const round4 = (n: number) => Math.round(n * 10000) / 10000;

export function landingPages(q: TrafficQuery): TrafficResult {
  const domain = q.domain
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/.*$/, '');
  const scale = 2000 + Math.floor(3_000_000 * rng(seedOf('traffic-scale', domain))() ** 4);
  const countryShare = q.country === 'us' ? 0.25 + 0.5 * rng(seedOf('traffic-us', domain))() : 1;
  const source = q.traffic_source ?? 'all';
  const list = pages(domain)
    .filter((p) => q.main_domain_only !== 'true' || p.main)
    .map((p) => {
      let desktop = 0;
      let mobile = 0;
      let paid = 0;
      for (const month of months(q.start_date, q.end_date)) {
        const r = rng(seedOf('traffic-month', p.url, month));
        const clicks = scale * p.weight * countryShare * (0.8 + 0.4 * r());
        const paidShare = 0.1 * r();
        const part = source === 'organic' ? 1 - paidShare : source === 'paid' ? paidShare : 1;
        mobile += Math.round(clicks * part * p.mobile);
        desktop += Math.round(clicks * part * (1 - p.mobile));
        paid += clicks * paidShare;
      }
      const total = desktop + mobile;
      const clicks = q.web_source === 'desktop' ? desktop : q.web_source === 'mobile_web' ? mobile : total;
      return { p, clicks, desktop, mobile, total, paid };
    })
    .sort((a, b) => b.clicks - a.clicks || (a.p.url < b.p.url ? -1 : 1));
  const all = list.reduce((s, x) => s + x.clicks, 0);
  const offset = q.offset ?? 0;
  const applied = Math.min(q.limit, TRAFFIC_MAX_ROWS);
  const request = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));
  return {
    meta: {
      status: 'Success',
      last_updated: new Date(DATA_DATE).toISOString().slice(0, 10),
      query: { limit: applied, offset, asc: false, sort: 'clicks' },
      request,
      total_count: list.length,
    },
    data: list.slice(offset, offset + applied).map(({ p, clicks, desktop, mobile, total, paid }) => ({
      url: p.url,
      clicks,
      traffic_share: all ? round4(clicks / all) : 0,
      desktop_share: total ? round4(desktop / total) : 0,
      mobile_share: total ? round4(mobile / total) : 0,
      keywords: p.keywords,
      top_keyword: p.topKeyword,
      serp_features: p.features,
      spend: source === 'organic' ? null : `$${(paid * 0.8).toFixed(2)}`,
      ads: source === 'organic' ? null : String(Math.round(paid / 50)),
    })),
  };
}
