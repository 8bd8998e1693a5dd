import { LRUCache } from 'lru-cache';
import {
  BACKLINKS_LIMITS,
  TASK_STATUS,
  type BacklinkItem,
  type BacklinkResult,
} from '../../../../contract/beta-seo.js';
import { TaskError, type TaskOutcome } from '../envelope.js';
import { compileFilterTree, parseOrder } from '../filter-compiler.js';
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../store/database.js';
import { backlinkItem, backlinkSet, seedBacklinks, type BacklinkSet } from '../../../store/beta-backlinks.repo.js';
import { reloadPlannerStatistics, steersIndexChoice } from '../../../store/dialect/backlinks.js';
import { columnOf, filterSql, orderSql } from './backlink-sql.js';
import { paramsHash, readToken, signToken } from '../paging-token.js';
import { TaskFields } from '../task-fields.js';
import { BACKLINK_FIELDS, generateBacklinks, parseTarget, type Target } from './backlinks-data.js';

type Db = Kysely<Database>;
/** The rows a page is read from: the subject's backlinks, with their group's place and size when grouped. */
type MatchedTable = { matched: Database['beta_backlinks'] & { group_place: number; group_size: number } };
type Matched = Database & MatchedTable;

const FIELDS = [
  'target',
  'backlinks_status_type',
  'mode',
  'custom_mode',
  'exclude_internal_backlinks',
  'include_subdomains',
  'filters',
  'limit',
  'offset',
  'order_by',
  'rank_scale',
  'search_after_token',
  'tag',
] as const;
/** Fields custom_mode may group by. */
const CUSTOM_MODE_FIELDS = [
  'domain_from',
  'anchor',
  'url_from',
  'domain_from_ip',
  'domain_from_country',
  'tld_from',
  'page_from_title',
  'url_to',
];
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

/** Counts of recent queries, so every further page of a walk does not count its matches again. */
const counts = new LRUCache<string, number>({ max: 256 });

/** The set version each subject was last queried at here: a new one may come with new statistics. */
const plannedVersions = new LRUCache<string, string>({ max: 10_000 });

/** The subject's current set: its rows are generated and stored on its first request. */
async function currentSet(db: Db, target: Target): Promise<BacklinkSet> {
  let set = await backlinkSet(db, target.subject);
  if (!set) {
    await seedBacklinks(db, target.subject, generateBacklinks(target));
    set = (await backlinkSet(db, target.subject))!;
  }
  // An import (perhaps by another process) analyzed the rows it wrote: plan with those statistics.
  if (plannedVersions.get(target.subject) !== set.version) {
    await reloadPlannerStatistics(db);
    plannedVersions.set(target.subject, set.version);
  }
  return set;
}

/** Order columns with an index of their own (migrations 0027 and 0028). */
const ORDER_INDEXED = new Set(['rank', 'domain_from_rank', 'first_seen', 'last_seen', 'anchor', 'domain_from']);
/** How many index entries a walk may read per match before reading the matches and sorting them is cheaper. */
const WALK_ENTRIES_PER_MATCH = 4;

/** Whether the order's index can be walked: a descending order (missing values last is the index's own order then) on an indexed column. */
function orderIndexed(rules: ReturnType<typeof parseOrder>, scale: BacklinkQuery['scale']): boolean {
  const first = rules[0];
  return first !== undefined && first.desc && ORDER_INDEXED.has(columnOf(first.field, scale));
}

/**
 * Whether to read a page by walking the order's index, testing each entry, instead of reading every
 * match and sorting: when the matches are dense enough that the page's end comes within a few
 * entries per match.
 */
function walkPays(end: number, rows: number, total: number): boolean {
  return (end * rows) / total <= WALK_ENTRIES_PER_MATCH * total;
}

/** A query's page: how many items it has in all, and items start..start+limit in order. */
export interface BacklinkPage {
  total: number;
  items: BacklinkItem[];
}

/**
 * The ordered answer of a query: the request's switches, the compiled filters, the order, then the
 * grouping mode (one row per domain or anchor, or custom_mode's N per group, keeps the first in
 * order; group_count counts the group's matches), as SQL over the subject's stored rows.
 */
export async function queryBacklinks(db: Db, q: BacklinkQuery, start: number, limit: number): Promise<BacklinkPage> {
  const tree = compileFilterTree(q.filters, BACKLINK_FIELDS);
  const rules = parseOrder(q.orderBy ?? DEFAULT_ORDER, BACKLINK_FIELDS);
  const subject = q.target.subject;
  const set = await currentSet(db, q.target);
  const where = [sql<SqlBool>`subject = ${subject}`];
  if (q.status !== 'all') where.push(sql<SqlBool>`is_lost = ${q.status === 'lost' ? 1 : 0}`);
  if (q.excludeInternal) where.push(sql<SqlBool>`internal = 0`);
  if (!q.includeSubdomains) where.push(sql<SqlBool>`to_subdomain = 0`);
  const filter = await filterSql(db, subject, set.version, tree, q.scale);
  const conditionOf = (unindexed: boolean) => sql<SqlBool>`${sql.join([...where, filter(unindexed)], sql` and `)}`;
  const condition = conditionOf(false);
  const order = orderSql(rules, q.scale);
  const groupField =
    q.customMode?.field ??
    (q.mode === 'one_per_domain' ? 'domain_from' : q.mode === 'one_per_anchor' ? 'anchor' : null);

  // Grouping: each match's place in its group and the group's size, by window functions.
  const sourceOf = (where: RawBuilder<SqlBool>): SelectQueryBuilder<Matched, 'matched', object> =>
    groupField
      ? db
          .with('matched', (w) =>
            w
              .selectFrom('beta_backlinks')
              .selectAll()
              .select([
                sql<number>`row_number() over (partition by ${sql.ref(groupField)} order by ${order})`.as(
                  'group_place',
                ),
                sql<number>`count(*) over (partition by ${sql.ref(groupField)})`.as('group_size'),
              ])
              .where(where),
          )
          .selectFrom('matched')
          .where('group_place', '<=', q.customMode?.value ?? 1)
      : db.withTables<MatchedTable>().selectFrom('beta_backlinks as matched').where(where);

  const countQuery = sourceOf(condition).select(sql<number>`count(*)`.as('n'));
  const compiled = countQuery.compile();
  const countKey = `${set.version}|${compiled.sql}|${JSON.stringify(compiled.parameters)}`;
  let total = counts.get(countKey) ?? -1;
  // Where the page may walk the order's index, the count comes first (the covering indexes of
  // migration 0028 answer it from the index alone for the common conditions) to decide whether the
  // walk pays. Elsewhere the page's keys come with the count of every match in the same pass.
  const walkable = !groupField && steersIndexChoice(db) && orderIndexed(rules, q.scale);
  if (total < 0 && walkable) {
    total = Number((await countQuery.executeTakeFirstOrThrow()).n);
    counts.set(countKey, total);
  }
  const walk = walkable && start < total && walkPays(start + limit, set.row_count, total);
  const keys = (await sourceOf(walk ? conditionOf(true) : condition)
    .select(groupField ? ['seq', 'group_size'] : ['seq'])
    .$if(total < 0, (qb) => qb.select(sql<number>`count(*) over ()`.as('total_count')))
    .orderBy(order)
    .limit(limit)
    .offset(start)
    .execute()) as Array<{ seq: number; group_size?: number; total_count?: number }>;
  if (total < 0) {
    total = keys.length
      ? Number(keys[0].total_count)
      : start === 0
        ? 0
        : Number((await countQuery.executeTakeFirstOrThrow()).n);
    counts.set(countKey, total);
  }
  const rows = keys.length
    ? await db
        .selectFrom('beta_backlinks')
        .selectAll()
        .where('subject', '=', subject)
        .where(
          'seq',
          'in',
          keys.map((k) => k.seq),
        )
        .execute()
    : [];
  const bySeq = new Map(rows.map((r) => [Number(r.seq), r as Record<string, unknown>]));
  return {
    total,
    items: keys.map((k) => backlinkItem(bySeq.get(Number(k.seq))!, q.scale, groupField ? Number(k.group_size) : 1)),
  };
}

/** One backlinks task: read and check every field (spec 4.9 and 8), query, page. */
export async function backlinksTask(db: Db, task: Record<string, unknown>, secret: Uint8Array): Promise<TaskOutcome> {
  const f = new TaskFields(task, FIELDS);
  const rawTarget = f.string('target', { required: true })!;
  const target = parseTarget(rawTarget);
  if (!target)
    throw new TaskError(
      TASK_STATUS.invalidValue,
      `target ${JSON.stringify(rawTarget)} is not a domain or subdomain (without scheme and www) or an absolute page URL`,
    );
  let customMode: BacklinkQuery['customMode'] = null;
  if (f.has('custom_mode')) {
    const cm = task.custom_mode as { field?: unknown; value?: unknown };
    if (
      !cm ||
      typeof cm !== 'object' ||
      typeof cm.field !== 'string' ||
      typeof cm.value !== 'number' ||
      !Number.isInteger(cm.value)
    ) {
      throw new TaskError(TASK_STATUS.invalidField, 'custom_mode is an object {field: string, value: integer}');
    }
    if (!CUSTOM_MODE_FIELDS.includes(cm.field))
      throw new TaskError(
        TASK_STATUS.invalidValue,
        `custom_mode.field must be one of ${CUSTOM_MODE_FIELDS.join(', ')}`,
      );
    if (cm.value < 1 || cm.value > 1000)
      throw new TaskError(TASK_STATUS.invalidValue, 'custom_mode.value must be between 1 and 1000');
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
  const all = await queryBacklinks(db, q, start, limit);
  const page = all.items;
  const next = start + page.length;
  const result: BacklinkResult = {
    target: target.subject,
    mode: customMode ? 'custom' : q.mode,
    custom_mode: customMode,
    total_count: all.total,
    items_count: page.length,
    search_after_token: next < all.total ? signToken(secret, { params: hash, position: next }) : null,
    items: page,
  };
  return { result: [result], cost: COST.task + COST.item * page.length };
}
