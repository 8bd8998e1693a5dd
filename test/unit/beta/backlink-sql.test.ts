import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BacklinkItem } from '../../../src/contract/beta-seo.js';
import {
  backlinksTask,
  queryBacklinks,
  type BacklinkQuery,
} from '../../../src/server/providers/beta/local/backlinks.js';
import {
  BACKLINK_FIELDS,
  generateBacklinks,
  parseTarget,
  scaleRank,
  type StoredBacklink,
} from '../../../src/server/providers/beta/local/backlinks-data.js';
import { comparator, compileFilters, parseOrder } from '../../../src/server/providers/beta/filter-compiler.js';
import { rng } from '../../../src/server/providers/beta/seeded.js';
import { seedBacklinks } from '../../../src/server/store/beta-backlinks.repo.js';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';

/**
 * The backlinks query runs as SQL over the store's tables (local/backlink-sql.ts). These tests hold
 * it to the plain definition — every row through the switches and the compiled predicate, a stable
 * sort, then the grouping — on SQLite and PostgreSQL alike.
 */

afterAll(dropTestDatabases);

function scaleRow(row: StoredBacklink, scale: 'one_hundred' | 'one_thousand'): StoredBacklink {
  if (scale === 'one_thousand') return row;
  return {
    ...row,
    rank: scaleRank(row.rank, scale),
    domain_from_rank: scaleRank(row.domain_from_rank, scale),
    page_from_rank: scaleRank(row.page_from_rank, scale),
  };
}

function publicItem(row: StoredBacklink, groupCount: number): BacklinkItem {
  const { internal: _i, to_subdomain: _s, ...item } = row;
  return { ...item, group_count: groupCount };
}

/** The answer by definition: what queryBacklinks computed before the index (kept here as the oracle). */
function reference(q: BacklinkQuery, rows: StoredBacklink[]): Array<{ row: StoredBacklink; group: number }> {
  const keep = compileFilters(q.filters, BACKLINK_FIELDS);
  const matched = rows
    .filter(
      (s) =>
        !(q.status === 'live' && s.is_lost) &&
        !(q.status === 'lost' && !s.is_lost) &&
        !(q.excludeInternal && s.internal) &&
        !(!q.includeSubdomains && s.to_subdomain),
    )
    .map((s) => scaleRow(s, q.scale))
    .filter(keep)
    .sort(comparator(parseOrder(q.orderBy ?? ['rank,desc'], BACKLINK_FIELDS)));
  const groupField =
    q.customMode?.field ??
    (q.mode === 'one_per_domain' ? 'domain_from' : q.mode === 'one_per_anchor' ? 'anchor' : null);
  if (!groupField) return matched.map((row) => ({ row, group: 1 }));
  const key = (r: StoredBacklink) => (r as unknown as Record<string, unknown>)[groupField];
  const sizes = new Map<unknown, number>();
  for (const r of matched) sizes.set(key(r), (sizes.get(key(r)) ?? 0) + 1);
  const taken = new Map<unknown, number>();
  return matched
    .filter((r) => {
      const n = taken.get(key(r)) ?? 0;
      if (n >= (q.customMode?.value ?? 1)) return false;
      taken.set(key(r), n + 1);
      return true;
    })
    .map((row) => ({ row, group: sizes.get(key(row))! }));
}

const target = parseTarget('index-check.example')!;
const rows = generateBacklinks(target, 6000);

const FILTERS: unknown[] = [
  undefined,
  [['rank', '>', 300], 'and', ['dofollow', '=', true], 'and', ['anchor', 'ilike', '%review%']],
  [['rank', '>', 30], 'or', ['page_from_title', '=', null]],
  [
    [['domain_from_country', 'in', ['DE', 'FR']], 'or', ['tld_from', 'like', 'co%']],
    'and',
    ['attributes', 'in', ['nofollow']],
  ],
  ['url_to_spam_score', '<>', null],
  [['first_seen', '>=', '2022-01-01 00:00:00 +00:00'], 'and', ['anchor', 'not_match', 'guide']],
  ['domain_from_platform_type', 'ilike', '%blog%'],
  ['url_from', 'regex', 'news|forum'],
];
const ORDERS: unknown[] = [
  undefined,
  ['first_seen,desc'],
  ['rank,asc', 'page_from_title,desc'],
  ['url_to_spam_score,desc', 'domain_from,asc', 'last_seen,asc'],
  ['dofollow,asc'],
];

describeOnStores('backlinks as SQL', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    await seedBacklinks(store.db, target.subject, rows);
  });
  afterAll(() => store?.close());

  it('answers every combination exactly as filtering and sorting every row does', async () => {
    const r = rng(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    for (let k = 0; k < 60; k++) {
      const custom =
        r() < 0.2 ? { field: pick(['domain_from', 'anchor', 'tld_from']), value: 1 + Math.floor(r() * 3) } : null;
      const q: BacklinkQuery = {
        target,
        status: pick(['all', 'live', 'lost'] as const),
        mode: pick(['as_is', 'as_is', 'one_per_domain', 'one_per_anchor'] as const),
        customMode: custom,
        excludeInternal: r() < 0.5,
        includeSubdomains: r() < 0.5,
        filters: pick(FILTERS),
        orderBy: pick(ORDERS),
        scale: pick(['one_hundred', 'one_thousand'] as const),
      };
      const want = reference(q, rows);
      const items = (from: number, n: number) => want.slice(from, from + n).map((w) => publicItem(w.row, w.group));
      const start = Math.floor(r() * Math.max(1, want.length));
      const got = await queryBacklinks(store.db, q, start, 50);
      expect(got.total, JSON.stringify({ ...q, target: undefined })).toBe(want.length);
      expect(got.items).toEqual(items(start, 50));
      expect((await queryBacklinks(store.db, q, 0, 20)).items).toEqual(items(0, 20));
    }
  });

  it('answers conditions never seen before (random bounds, patterns, and/or nesting) exactly, page by page through tokens', async () => {
    const r = rng(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const letters = 'aeiorstnl';
    const pattern = () => Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick([...letters])).join('');
    // Each kind of condition: ranges on scaled ranks, booleans, dates, patterns tested per distinct
    // value (the accepted or the refused values, whichever are fewer), lists, missing values.
    const leaf = (): unknown[] =>
      pick([
        () => ['rank', pick(['>', '>=', '<', '<=', '=', '<>']), Math.floor(r() * 1000)],
        () => ['domain_from_rank', pick(['>', '<']), Math.floor(r() * 100)],
        () => ['dofollow', pick(['=', '<>']), r() < 0.5],
        () => ['anchor', pick(['ilike', 'like', 'not_ilike']), `%${pattern()}%`],
        () => ['anchor', 'ilike', `${pattern()}%`],
        () => [
          pick(['anchor', 'url_from', 'page_from_title']),
          pick(['like', 'ilike', 'not_like']),
          `%${pick(['Review', 'review', 'blog', 'news', 'HTTPS', 'guide', 'xyz'])}${pick(['', '%', '_'])}${pattern()}%`,
        ],
        () => [
          'first_seen',
          pick(['>', '<=']),
          `20${10 + Math.floor(r() * 16)}-0${1 + Math.floor(r() * 9)}-01 00:00:00 +00:00`,
        ],
        () => ['attributes', pick(['in', 'not_in']), [pick(['nofollow', 'ugc', 'sponsored', 'noopener'])]],
        () => ['page_from_title', pick(['=', '<>']), null],
        () => ['item_type', 'in', [pick(['anchor', 'image', 'redirect']), pick(['canonical', 'meta'])]],
      ])();
    const tree = (depth: number): unknown[] => {
      const n = 1 + Math.floor(r() * 3);
      const out: unknown[] = [];
      for (let k = 0; k < n; k++) {
        if (k > 0) out.push(pick(['and', 'and', 'or']));
        out.push(depth > 0 && r() < 0.3 ? tree(depth - 1) : leaf());
      }
      return n === 1 && !Array.isArray(out[0]) ? out : out.length === 1 ? (out[0] as unknown[]) : out;
    };
    const secret = new Uint8Array(32);
    const totals: number[] = [];
    for (let k = 0; k < 40; k++) {
      const filters = tree(1);
      const orderBy = pick(ORDERS.slice(1)) as string[];
      const q: BacklinkQuery = {
        target,
        status: pick(['all', 'live'] as const),
        mode: 'as_is',
        customMode: null,
        excludeInternal: r() < 0.5,
        includeSubdomains: true,
        filters,
        orderBy,
        scale: pick(['one_hundred', 'one_thousand'] as const),
      };
      const want = reference(q, rows);
      // Walk every page through search_after_token, as a client does.
      const task = {
        target: target.subject,
        backlinks_status_type: q.status,
        exclude_internal_backlinks: q.excludeInternal,
        filters,
        order_by: orderBy,
        rank_scale: q.scale,
        limit: 700,
      };
      const got: unknown[] = [];
      let token: string | null = null;
      for (let page = 0; page < 20; page++) {
        const res: { total_count: number; items: unknown[]; search_after_token: string | null } = (
          (await backlinksTask(store.db, token ? { ...task, search_after_token: token } : task, secret))
            .result as Array<{ total_count: number; items: unknown[]; search_after_token: string | null }>
        )[0];
        expect(res.total_count, JSON.stringify(filters)).toBe(want.length);
        got.push(...res.items);
        token = res.search_after_token;
        if (!token) break;
      }
      expect(got.length, JSON.stringify(filters)).toBe(want.length);
      expect(got).toEqual(want.map((w) => publicItem(w.row, w.group)));
      totals.push(want.length);
    }
    // The random conditions cover empty, small and large answers alike.
    expect(totals.filter((t) => t === 0).length).toBeLessThan(totals.length / 2);
    expect(Math.max(...totals)).toBeGreaterThan(rows.length / 4);
  });
});
