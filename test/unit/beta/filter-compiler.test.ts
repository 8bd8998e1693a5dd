import { describe, expect, it } from 'vitest';
import {
  comparator,
  compileFilters,
  FilterError,
  parseOrder,
  type FieldTable,
} from '../../../src/server/providers/beta/filter-compiler.js';
import {
  BACKLINK_FIELDS,
  generateBacklinks,
  parseTarget,
} from '../../../src/server/providers/beta/local/backlinks-data.js';
import { WHOIS_FIELDS, whoisUniverse } from '../../../src/server/providers/beta/local/whois.js';

type AnyRow = Record<string, any>;

const backlinks = generateBacklinks(parseTarget('example.com')!) as unknown as AnyRow[];
const whois = whoisUniverse() as unknown as AnyRow[];

const DATASETS: Record<string, { rows: AnyRow[]; fields: FieldTable }> = {
  backlinks: { rows: backlinks, fields: BACKLINK_FIELDS },
  whois: { rows: whois, fields: WHOIS_FIELDS },
};

/** Each case: the filters the API takes and the same condition written by hand (the oracle). */
const CASES: Array<{ name: string; data: keyof typeof DATASETS; filters: unknown[]; oracle: (r: AnyRow) => boolean }> =
  [
    { name: '= number', data: 'backlinks', filters: ['links_count', '=', 1], oracle: (r) => r.links_count === 1 },
    {
      name: '<> string',
      data: 'backlinks',
      filters: ['item_type', '<>', 'anchor'],
      oracle: (r) => r.item_type !== 'anchor',
    },
    { name: '<', data: 'backlinks', filters: ['rank', '<', 100], oracle: (r) => r.rank < 100 },
    {
      name: '<=',
      data: 'backlinks',
      filters: ['backlink_spam_score', '<=', 5],
      oracle: (r) => r.backlink_spam_score <= 5,
    },
    { name: '>', data: 'backlinks', filters: ['rank', '>', 500], oracle: (r) => r.rank > 500 },
    {
      name: '>=',
      data: 'backlinks',
      filters: ['domain_from_rank', '>=', 300],
      oracle: (r) => r.domain_from_rank >= 300,
    },
    { name: '= boolean', data: 'backlinks', filters: ['dofollow', '=', true], oracle: (r) => r.dofollow === true },
    {
      name: 'date >',
      data: 'backlinks',
      filters: ['first_seen', '>', '2024-01-01 00:00:00 +00:00'],
      oracle: (r) => r.first_seen > '2024-01-01 00:00:00 +00:00',
    },
    {
      name: 'in',
      data: 'backlinks',
      filters: ['item_type', 'in', ['image', 'redirect']],
      oracle: (r) => ['image', 'redirect'].includes(r.item_type),
    },
    {
      name: 'not_in',
      data: 'backlinks',
      filters: ['domain_from_country', 'not_in', ['US', 'DE']],
      oracle: (r) => !['US', 'DE'].includes(r.domain_from_country),
    },
    {
      name: 'in on a list field',
      data: 'backlinks',
      filters: ['attributes', 'in', ['nofollow']],
      oracle: (r) => Array.isArray(r.attributes) && r.attributes.includes('nofollow'),
    },
    {
      name: 'like',
      data: 'backlinks',
      filters: ['url_from', 'like', 'https://%/blog/%'],
      oracle: (r) => r.url_from.startsWith('https://') && r.url_from.includes('/blog/'),
    },
    {
      name: 'not_like',
      data: 'backlinks',
      filters: ['url_from', 'not_like', '%/blog/%'],
      oracle: (r) => !r.url_from.includes('/blog/'),
    },
    {
      name: 'like with _',
      data: 'backlinks',
      filters: ['anchor', 'like', 'exampl_ %'],
      oracle: (r) => typeof r.anchor === 'string' && r.anchor.startsWith('example '),
    },
    {
      name: 'ilike',
      data: 'backlinks',
      filters: ['anchor', 'ilike', 'EXAMPLE%'],
      oracle: (r) => typeof r.anchor === 'string' && r.anchor.toLowerCase().startsWith('example'),
    },
    {
      name: 'not_ilike',
      data: 'backlinks',
      filters: ['anchor', 'not_ilike', '%REVIEW%'],
      oracle: (r) => !(typeof r.anchor === 'string' && r.anchor.toLowerCase().includes('review')),
    },
    {
      name: 'regex',
      data: 'backlinks',
      filters: ['domain_from', 'regex', '^(blog|news)\\.'],
      oracle: (r) => /^(blog|news)\./.test(r.domain_from),
    },
    {
      name: 'not_regex',
      data: 'backlinks',
      filters: ['tld_from', 'not_regex', '^com$'],
      oracle: (r) => r.tld_from !== 'com',
    },
    {
      name: 'match (all words, any case)',
      data: 'backlinks',
      filters: ['anchor', 'match', 'Example Guide'],
      oracle: (r) => typeof r.anchor === 'string' && /\bexample\b/i.test(r.anchor) && /\bguide\b/i.test(r.anchor),
    },
    {
      name: 'not_match',
      data: 'backlinks',
      filters: ['anchor', 'not_match', 'example'],
      oracle: (r) => !(typeof r.anchor === 'string' && /\bexample\b/i.test(r.anchor)),
    },
    { name: '= null', data: 'backlinks', filters: ['prev_seen', '=', null], oracle: (r) => r.prev_seen === null },
    {
      name: 'and',
      data: 'backlinks',
      filters: [['rank', '>', 300], 'and', ['dofollow', '=', true]],
      oracle: (r) => r.rank > 300 && r.dofollow,
    },
    {
      name: 'or',
      data: 'backlinks',
      filters: [['item_type', '=', 'image'], 'or', ['is_broken', '=', true]],
      oracle: (r) => r.item_type === 'image' || r.is_broken,
    },
    {
      name: 'and binds tighter than or',
      data: 'backlinks',
      filters: [['item_type', '=', 'image'], 'or', ['rank', '>', 600], 'and', ['dofollow', '=', false]],
      oracle: (r) => r.item_type === 'image' || (r.rank > 600 && !r.dofollow),
    },
    {
      name: 'nested groups',
      data: 'backlinks',
      filters: [[['item_type', '=', 'image'], 'or', ['rank', '>', 600]], 'and', ['dofollow', '=', false]],
      oracle: (r) => (r.item_type === 'image' || r.rank > 600) && !r.dofollow,
    },
    {
      name: 'eight conditions',
      data: 'backlinks',
      filters: [
        ['rank', '>', 1],
        'and',
        ['rank', '<', 999],
        'and',
        ['links_count', '>=', 1],
        'and',
        ['dofollow', '=', true],
        'and',
        ['is_lost', '=', false],
        'and',
        ['page_from_size', '>', 10000],
        'and',
        ['tld_from', '<>', 'xx'],
        'and',
        ['backlink_spam_score', '<', 90],
      ],
      oracle: (r) =>
        r.rank > 1 &&
        r.rank < 999 &&
        r.links_count >= 1 &&
        r.dofollow &&
        !r.is_lost &&
        r.page_from_size > 10000 &&
        r.tld_from !== 'xx' &&
        r.backlink_spam_score < 90,
    },
    {
      name: 'dotted path',
      data: 'whois',
      filters: ['metrics.organic.count', '>', 5000],
      oracle: (r) => r.metrics.organic.count > 5000,
    },
    {
      name: 'dotted paths with and/or',
      data: 'whois',
      filters: [
        ['backlinks_info.referring_domains', '>', 50],
        'and',
        [['tld', '=', 'com'], 'or', ['metrics.paid.pos_1', '>=', 5]],
      ],
      oracle: (r) => r.backlinks_info.referring_domains > 50 && (r.tld === 'com' || r.metrics.paid.pos_1 >= 5),
    },
    {
      name: 'whois boolean',
      data: 'whois',
      filters: ['registered', '=', false],
      oracle: (r) => r.registered === false,
    },
    {
      name: 'whois list field like',
      data: 'whois',
      filters: ['epp_status_codes', 'like', '%delete%'],
      oracle: (r) => r.epp_status_codes.some((c: string) => c.includes('delete')),
    },
  ];

describe('the filter compiler against the data', () => {
  it.each(CASES)('$data: $name', ({ data, filters, oracle }) => {
    const { rows, fields } = DATASETS[data];
    const expected = rows.filter(oracle);
    const got = rows.filter(compileFilters(filters, fields));
    expect(got).toEqual(expected);
    // The case is a real test only when it keeps some rows and drops others.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(rows.length);
  });
});

describe('case', () => {
  it('like is case-sensitive, ilike is not', () => {
    expect(backlinks.filter(compileFilters(['anchor', 'like', 'EXAMPLE%'], BACKLINK_FIELDS))).toEqual([]);
    expect(backlinks.filter(compileFilters(['anchor', 'ilike', 'EXAMPLE%'], BACKLINK_FIELDS)).length).toBeGreaterThan(
      0,
    );
  });
});

const ERRORS: Array<{ name: string; filters: unknown; message: RegExp }> = [
  { name: 'unknown field', filters: ['nope', '=', 1], message: /unknown filter field: nope/ },
  { name: 'unknown operator', filters: ['rank', '~', 1], message: /unknown operator "~"/ },
  { name: 'number field given a string', filters: ['rank', '>', '50'], message: /rank: value "50" is not a number/ },
  { name: 'boolean field given a number', filters: ['dofollow', '=', 1], message: /not a boolean/ },
  {
    name: 'like on a number',
    filters: ['rank', 'like', '5%'],
    message: /operator like does not apply to rank \(number\)/,
  },
  { name: 'comparison on a boolean', filters: ['dofollow', '>', true], message: /operator > does not apply/ },
  { name: 'in without an array', filters: ['item_type', 'in', 'image'], message: /takes a non-empty array/ },
  { name: 'in with a mistyped member', filters: ['rank', 'in', [1, 'two']], message: /not a number/ },
  { name: 'a bad regex', filters: ['anchor', 'regex', '('], message: /does not compile/ },
  { name: 'a bad joiner', filters: [['rank', '>', 1], 'xor', ['rank', '<', 5]], message: /joined by "and" or "or"/ },
  { name: 'a dangling joiner', filters: [['rank', '>', 1], 'and'], message: /alternates conditions/ },
  { name: 'not an array', filters: 'rank > 1', message: /filters must be an array/ },
  {
    name: 'nine conditions',
    filters: Array.from({ length: 9 }, () => ['rank', '>', 1]).flatMap((c, i) => (i === 0 ? [c] : ['and', c])),
    message: /at most 8 filter conditions/,
  },
];

describe('filters the compiler refuses', () => {
  it.each(ERRORS)('$name', ({ filters, message }) => {
    expect(() => compileFilters(filters, BACKLINK_FIELDS)).toThrow(FilterError);
    expect(() => compileFilters(filters, BACKLINK_FIELDS)).toThrow(message);
  });
});

describe('order_by', () => {
  it('orders by up to three rules, missing values last', () => {
    const rules = parseOrder(['dofollow,desc', 'rank,asc', 'first_seen,desc'], BACKLINK_FIELDS);
    const sorted = [...backlinks].sort(comparator(rules));
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1], sorted[i]];
      if (a.dofollow !== b.dofollow) expect(a.dofollow).toBe(true);
      else if (a.rank !== b.rank) expect(a.rank).toBeLessThan(b.rank);
      else expect(a.first_seen >= b.first_seen).toBe(true);
    }
    const byTitle = [...backlinks].sort(comparator(parseOrder(['page_from_title,asc'], BACKLINK_FIELDS)));
    expect(byTitle.at(-1)!.page_from_title).toBeNull();
  });

  it('orders by a dotted path', () => {
    const sorted = [...whois].sort(comparator(parseOrder(['backlinks_info.backlinks,desc'], WHOIS_FIELDS)));
    expect(sorted.map((r) => r.backlinks_info.backlinks)).toEqual(
      whois.map((r) => r.backlinks_info.backlinks).sort((a, b) => b - a),
    );
  });

  it('refuses a fourth rule, an unknown field, a bad direction and a list field', () => {
    expect(() => parseOrder(['rank,asc', 'rank,desc', 'rank,asc', 'rank,desc'], BACKLINK_FIELDS)).toThrow(
      /at most 3 order_by rules/,
    );
    expect(() => parseOrder(['nope,asc'], BACKLINK_FIELDS)).toThrow(/unknown order_by field: nope/);
    expect(() => parseOrder(['rank,up'], BACKLINK_FIELDS)).toThrow(/not "field,asc"/);
    expect(() => parseOrder(['attributes,asc'], BACKLINK_FIELDS)).toThrow(/cannot be ordered/);
  });
});
