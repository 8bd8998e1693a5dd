import { LRUCache } from 'lru-cache';
import { BACKLINKS_LIMITS, TASK_STATUS, type BacklinkResult } from '../../../../contract/beta-seo.js';
import { TaskError, type TaskOutcome } from '../envelope.js';
import { compileFilterTree, parseOrder } from '../filter-compiler.js';
import { backlinkIndex } from './backlink-index.js';
import { forEachBit, hasBit } from './bitset.js';
import { paramsHash, readToken, signToken } from '../paging-token.js';
import { TaskFields } from '../task-fields.js';
import { BACKLINK_FIELDS, generateBacklinks, parseTarget, publicItem, type StoredBacklink, type Target } from './backlinks-data.js';

const FIELDS = ['target', 'backlinks_status_type', 'mode', 'custom_mode', 'exclude_internal_backlinks', 'include_subdomains', 'filters', 'limit', 'offset', 'order_by', 'rank_scale', 'search_after_token', 'tag'] as const;
/** Fields custom_mode may group by. */
const CUSTOM_MODE_FIELDS = ['domain_from', 'anchor', 'url_from', 'domain_from_ip', 'domain_from_country', 'tld_from', 'page_from_title', 'url_to'];
const DEFAULT_ORDER = ['rank,desc'];
/** USD per task plus per item returned (provider metadata, not a charge). */
const COST = { task: 0.02, item: 0.00003 };

export interface BacklinkQuery {
  target: Target;
  status: 'all' | 'live' | 'lost';
  mode: 'as_is' | 'one_per_domain' | 'one_per_anchor';
  customMode: { field: string; value: number } | null;
  excludeInternal: boolean;
  includeSubdomains: boolean;
  filters: unknown;
  orderBy: unknown;
  scale: 'one_hundred' | 'one_thousand';
}

/** Generated rows of the 16 most recently used subjects, so paging through one target does not generate its rows again on every page. */
const cache = new LRUCache<string, StoredBacklink[]>({ max: 16 });

/** A target's stored rows (generated once per process for the most recent targets). */
export function storedBacklinks(target: Target): StoredBacklink[] {
  let rows = cache.get(target.subject);
  if (!rows) cache.set(target.subject, (rows = generateBacklinks(target)));
  return rows;
}

/** A query's answer: how many items it has, and any run of them in order. */
export interface BacklinkAnswer {
  total: number;
  slice(start: number, end: number): Array<{ row: StoredBacklink; group: number }>;
}

/**
 * The ordered answer of a query: the request's switches, the compiled filters, the order, then the
 * grouping mode (one row per domain or anchor keeps the first in order). Runs over the rows' column
 * index (backlink-index.ts): bitsets and a presorted permutation, so a page reads only its own rows.
 */
export function queryBacklinks(q: BacklinkQuery, rows: readonly StoredBacklink[] = storedBacklinks(q.target)): BacklinkAnswer {
  const tree = compileFilterTree(q.filters, BACKLINK_FIELDS);
  const rules = parseOrder(q.orderBy ?? DEFAULT_ORDER, BACKLINK_FIELDS);
  const index = backlinkIndex(rows);
  const keep = index.switchBits(q.status, q.excludeInternal, q.includeSubdomains);
  const { bits, total: matched } = index.matches(tree, keep, `${q.status}/${q.excludeInternal}/${q.includeSubdomains}`, q.scale);
  const perm = index.order(rules, q.scale);
  const groupField = q.customMode?.field ?? (q.mode === 'one_per_domain' ? 'domain_from' : q.mode === 'one_per_anchor' ? 'anchor' : null);

  if (!groupField) {
    return {
      total: matched,
      // The order's permutation, read until the page is filled: its matching rows are its bits.
      slice(start, end) {
        const out: Array<{ row: StoredBacklink; group: number }> = [];
        let seen = 0;
        for (let j = 0; j < perm.length && seen < end; j++) {
          const i = perm[j];
          if (!hasBit(bits, i)) continue;
          if (seen++ >= start) out.push({ row: index.row(i, q.scale), group: 1 });
        }
        return out;
      },
    };
  }
  // Grouping needs every match: a group's size counts all its rows, and its first in order is kept.
  const { codes, values } = index.column(groupField, q.scale);
  const perGroup = q.customMode?.value ?? 1;
  const sizes = new Int32Array(values.length);
  forEachBit(bits, (i) => sizes[codes[i]]++);
  const taken = new Int32Array(values.length);
  const kept: number[] = [];
  for (let j = 0; j < perm.length; j++) {
    const i = perm[j];
    if (!hasBit(bits, i) || taken[codes[i]] >= perGroup) continue;
    taken[codes[i]]++;
    kept.push(i);
  }
  return {
    total: kept.length,
    slice: (start, end) => kept.slice(start, end).map((i) => ({ row: index.row(i, q.scale), group: sizes[codes[i]] })),
  };
}

/** One backlinks task: read and check every field (spec 4.9 and 8), query, page. */
export function backlinksTask(task: Record<string, unknown>, secret: Uint8Array, imported?: StoredBacklink[]): TaskOutcome {
  const f = new TaskFields(task, FIELDS);
  const rawTarget = f.string('target', { required: true })!;
  const target = parseTarget(rawTarget);
  if (!target) throw new TaskError(TASK_STATUS.invalidValue, `target ${JSON.stringify(rawTarget)} is not a domain or subdomain (without scheme and www) or an absolute page URL`);
  let customMode: BacklinkQuery['customMode'] = null;
  if (f.has('custom_mode')) {
    const cm = task.custom_mode as { field?: unknown; value?: unknown };
    if (!cm || typeof cm !== 'object' || typeof cm.field !== 'string' || typeof cm.value !== 'number' || !Number.isInteger(cm.value)) {
      throw new TaskError(TASK_STATUS.invalidField, 'custom_mode is an object {field: string, value: integer}');
    }
    if (!CUSTOM_MODE_FIELDS.includes(cm.field)) throw new TaskError(TASK_STATUS.invalidValue, `custom_mode.field must be one of ${CUSTOM_MODE_FIELDS.join(', ')}`);
    if (cm.value < 1 || cm.value > 1000) throw new TaskError(TASK_STATUS.invalidValue, 'custom_mode.value must be between 1 and 1000');
    customMode = { field: cm.field, value: cm.value };
  }
  const q: BacklinkQuery = {
    target,
    status: f.oneOf('backlinks_status_type', ['all', 'live', 'lost'], 'live'),
    mode: f.oneOf('mode', ['as_is', 'one_per_domain', 'one_per_anchor'], 'as_is'),
    customMode,
    excludeInternal: f.bool('exclude_internal_backlinks', true),
    includeSubdomains: f.bool('include_subdomains', true),
    filters: task.filters,
    orderBy: task.order_by,
    scale: f.oneOf('rank_scale', ['one_hundred', 'one_thousand'], 'one_thousand'),
  };
  const limit = f.int('limit', { min: 1, max: BACKLINKS_LIMITS.maxLimit, default: BACKLINKS_LIMITS.defaultLimit });
  const offset = f.int('offset', { min: 0, max: BACKLINKS_LIMITS.maxOffset, default: 0 });
  f.tag();
  const token = f.string('search_after_token');
  const hash = paramsHash(task, ['search_after_token']);
  let start = offset;
  if (token !== undefined) {
    const read = readToken(secret, token, hash);
    if ('error' in read) throw new TaskError(TASK_STATUS.invalidToken, `search_after_token: ${read.error}`);
    start = read.position;
  }
  const all = queryBacklinks(q, imported ?? storedBacklinks(target));
  const page = all.slice(start, start + limit);
  const next = start + page.length;
  const result: BacklinkResult = {
    target: target.subject,
    mode: customMode ? 'custom' : q.mode,
    custom_mode: customMode,
    total_count: all.total,
    items_count: page.length,
    search_after_token: next < all.total ? signToken(secret, { params: hash, position: next }) : null,
    items: page.map(({ row, group }) => publicItem(row, group)),
  };
  return { result: [result], cost: COST.task + COST.item * page.length };
}
