import { TASK_STATUS, WHOIS_LIMITS, type WhoisItem, type WhoisResult } from '../../../../contract/beta-seo.js';
import { TaskError, type TaskOutcome } from '../envelope.js';
import { comparator, compileFilters, parseOrder, type FieldTable, type Row } from '../filter-compiler.js';
import { paramsHash, readToken, signToken } from '../paging-token.js';
import { DATA_DATE, WORDS, int, pick, providerDate, rng, rowRng, seedOf } from '../seeded.js';
import { TaskFields } from '../task-fields.js';
import { backlinkCore, backlinkSet, parseTarget } from './backlinks-data.js';

/**
 * The local whois overview: a fixed universe of domains generated from one seed. Each domain's
 * backlinks_info is counted from the same backlink store the backlinks endpoint reads, with that
 * endpoint's defaults (live links, internal links excluded, subdomains included), so the two agree.
 */

export const WHOIS_UNIVERSE_SIZE = 240;
const FIELDS = ['filters', 'limit', 'offset', 'offset_token', 'order_by', 'tag'] as const;
const DEFAULT_ORDER = ['metrics.organic.count,desc'];
const COST = { task: 0.1, item: 0.0001 };
const BUCKETS = [
  'pos_1',
  'pos_2_3',
  'pos_4_10',
  'pos_11_20',
  'pos_21_30',
  'pos_31_40',
  'pos_41_50',
  'pos_51_60',
  'pos_61_70',
  'pos_71_80',
  'pos_81_90',
  'pos_91_100',
] as const;
const REGISTRARS = [
  'GoDaddy.com, LLC',
  'NameCheap, Inc.',
  'Tucows Domains Inc.',
  'Gandi SAS',
  'Cloudflare, Inc.',
  'Key-Systems GmbH',
  'MarkMonitor Inc.',
  'OVH sas',
];
const WHOIS_TLDS = ['com', 'com', 'com', 'net', 'org', 'io', 'de', 'co', 'dev'];
const DAY = 86_400_000;

export const WHOIS_FIELDS: FieldTable = {
  domain: 'string',
  created_datetime: 'date',
  changed_datetime: 'date',
  expiration_datetime: 'date',
  updated_datetime: 'date',
  first_seen: 'date',
  epp_status_codes: 'string[]',
  tld: 'string',
  registered: 'boolean',
  registrar: 'string',
  ...Object.fromEntries(
    ['organic', 'paid'].flatMap((kind) =>
      ['count', 'etv', 'estimated_paid_traffic_cost', ...BUCKETS].map((m) => [
        `metrics.${kind}.${m}`,
        'number' as const,
      ]),
    ),
  ),
  'backlinks_info.backlinks': 'number',
  'backlinks_info.dofollow': 'number',
  'backlinks_info.referring_domains': 'number',
  'backlinks_info.referring_main_domains': 'number',
  'backlinks_info.referring_pages': 'number',
  'backlinks_info.time_update': 'date',
};

/**
 * Counts over the live, external backlinks of a domain: what the backlinks endpoint lists by
 * default. Read from each row's core facts only, which is what makes a whole universe affordable.
 */
export function backlinksInfo(domain: string): WhoisItem['backlinks_info'] {
  const target = parseTarget(domain)!;
  const set = backlinkSet(target);
  let backlinks = 0;
  let dofollow = 0;
  const domains = new Set<string>();
  const mains = new Set<string>();
  const pages = new Set<string>();
  for (let i = 0; i < set.count; i++) {
    const core = backlinkCore(target, set, i);
    if (core.isLost || core.internal) continue;
    backlinks += 1;
    if (core.dofollow) dofollow += 1;
    domains.add(core.from.domain);
    mains.add(core.from.mainDomain);
    pages.add(core.page);
  }
  return {
    backlinks,
    dofollow,
    referring_domains: domains.size,
    referring_main_domains: mains.size,
    referring_pages: pages.size,
    time_update: providerDate(DATA_DATE),
  };
}

function metrics(r: () => number, scale: number) {
  const count = Math.floor(scale * r() ** 2);
  const buckets = Object.fromEntries(BUCKETS.map((b) => [b, 0])) as Record<(typeof BUCKETS)[number], number>;
  // Spread the count over the rank buckets, more of it further down the results.
  for (let k = 0; k < count; k++)
    buckets[BUCKETS[Math.min(BUCKETS.length - 1, Math.floor(BUCKETS.length * r() ** 0.7))]] += 1;
  const etv = Math.round(count * (0.5 + 20 * r()) * 100) / 100;
  return { count, etv, estimated_paid_traffic_cost: Math.round(etv * (0.2 + 3 * r()) * 100) / 100, ...buckets };
}

function whoisDomain(i: number): WhoisItem {
  const r = rowRng(seedOf('whois-universe'), i);
  const domain = `${pick(r, WORDS)}${pick(r, WORDS)}${i}.${pick(r, WHOIS_TLDS)}`;
  const created = DATA_DATE - int(r, 200, 9000) * DAY;
  const registered = r() > 0.08;
  const expiration = registered ? DATA_DATE + int(r, 10, 2000) * DAY : DATA_DATE - int(r, 1, 300) * DAY;
  const changed = created + Math.floor(r() * (DATA_DATE - created));
  const m = rng(seedOf('whois-metrics', domain));
  return {
    domain,
    created_datetime: providerDate(created),
    changed_datetime: providerDate(changed),
    expiration_datetime: providerDate(expiration),
    updated_datetime: providerDate(changed),
    first_seen: providerDate(created + int(r, 1, 90) * DAY),
    epp_status_codes: registered
      ? ['client transfer prohibited', ...(r() < 0.4 ? ['client delete prohibited'] : [])]
      : ['redemption period'],
    tld: domain.slice(domain.indexOf('.') + 1),
    registered,
    registrar: r() < 0.05 ? null : pick(r, REGISTRARS),
    metrics: { organic: metrics(m, 20000), paid: metrics(m, 800) },
    backlinks_info: backlinksInfo(domain),
  };
}

let universe: WhoisItem[] | null = null;

/** The whois universe, generated once per process. */
export function whoisUniverse(): WhoisItem[] {
  universe ??= Array.from({ length: WHOIS_UNIVERSE_SIZE }, (_, i) => whoisDomain(i));
  return universe;
}

export function whoisTask(task: Record<string, unknown>, secret: Uint8Array): TaskOutcome {
  const f = new TaskFields(task, FIELDS);
  const limit = f.int('limit', { min: 1, max: WHOIS_LIMITS.maxLimit, default: WHOIS_LIMITS.defaultLimit });
  const offset = f.int('offset', { min: 0, max: WHOIS_LIMITS.maxOffset, default: 0 });
  f.tag();
  const keep = compileFilters(task.filters, WHOIS_FIELDS);
  const order = comparator(parseOrder(task.order_by ?? DEFAULT_ORDER, WHOIS_FIELDS));
  const token = f.string('offset_token');
  const hash = paramsHash(task, ['offset_token']);
  let start = offset;
  if (token !== undefined) {
    const read = readToken(secret, token, hash);
    if ('error' in read) throw new TaskError(TASK_STATUS.invalidToken, `offset_token: ${read.error}`);
    start = read.position;
  }
  const all = whoisUniverse()
    .filter((item) => keep(item as unknown as Row))
    .sort((a, b) => order(a, b));
  const page = all.slice(start, start + limit);
  const next = start + page.length;
  const result: WhoisResult = {
    total_count: all.length,
    items_count: page.length,
    offset: start,
    offset_token: next < all.length ? signToken(secret, { params: hash, position: next }) : null,
    items: page,
  };
  return { result: [result], cost: COST.task + COST.item * page.length };
}
