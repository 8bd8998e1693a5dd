import { LRUCache } from 'lru-cache';
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../store/database.js';
import { inValueSet, unindexedRef } from '../../../store/dialect/backlinks.js';
import type { FilterTree, OrderRule } from '../filter-compiler.js';
import { BACKLINK_FIELDS, SCALED_FIELDS } from './backlinks-data.js';
import { likeMayMatch } from './backlinks-like.js';

/**
 * The backlinks filter tree and order as SQL over beta_backlinks. Comparisons and `in` become plain
 * SQL on the field's column. Conditions the database must not evaluate itself — caller patterns
 * (like, ilike, regex: they run in re2js, linear time), word matches and conditions on list fields —
 * run the compiler's own test once per distinct value of the column, and become "the column is one
 * of the values that passed" (or "none of those that failed", whichever set is smaller).
 */

type Db = Kysely<Database>;
type Scale = 'one_hundred' | 'one_thousand';
type Leaf = Extract<FilterTree, { kind: 'leaf' }>;
type Bool = RawBuilder<SqlBool> | Expression<SqlBool>;

const TESTED_OPERATORS = new Set([
  'like',
  'not_like',
  'ilike',
  'not_ilike',
  'regex',
  'not_regex',
  'match',
  'not_match',
]);
const FALSE = sql<SqlBool>`0 = 1`;
const TRUE = sql<SqlBool>`1 = 1`;

/** The column holding a field at a scale (ranks have a 0-100 copy). */
export function columnOf(field: string, scale: Scale): string {
  return scale === 'one_hundred' && SCALED_FIELDS.has(field) ? `${field}_100` : field;
}

const and = (parts: Bool[]): Bool => (parts.length === 1 ? parts[0] : sql<SqlBool>`(${sql.join(parts, sql` and `)})`);
const or = (parts: Bool[]): Bool => (parts.length === 1 ? parts[0] : sql<SqlBool>`(${sql.join(parts, sql` or `)})`);

/** Distinct values of a column per subject set, kept for the next conditions on that column (a million values at most in all). */
const distinctCache = new LRUCache<string, Array<string | null>>({
  maxSize: 1_000_000,
  sizeCalculation: (v) => Math.max(1, v.length),
});

async function distinctValues(db: Db, subject: string, version: string, column: string): Promise<Array<string | null>> {
  const key = `${version}|${column}`;
  let values = distinctCache.get(key);
  if (!values) {
    const rows = await db
      .selectFrom('beta_backlinks')
      .select(sql.ref<string | null>(column).as('v'))
      .distinct()
      .where('subject', '=', subject)
      .execute();
    values = rows.map((r) => r.v);
    distinctCache.set(key, values);
  }
  return values;
}

/** A condition run on each distinct value of its column (see above), as SQL on a reference to that column. */
async function testedLeaf(
  db: Db,
  subject: string,
  version: string,
  leaf: Leaf,
  column: string,
): Promise<(ref: Expression<unknown>) => Bool> {
  const list = BACKLINK_FIELDS[leaf.field] === 'string[]';
  const accepted: string[] = [];
  const refused: string[] = [];
  let nullAccepted = false;
  const [, op, pattern] = leaf.condition;
  // Values a like pattern cannot match skip its automaton: the condition is then false (true negated).
  const mayMatch = list ? null : likeMayMatch(op, pattern);
  const unmatched = op.startsWith('not_') ? accepted : refused;
  for (const v of await distinctValues(db, subject, version, column)) {
    if (v === null) nullAccepted = leaf.testValue(null);
    else if (mayMatch && !mayMatch(v)) unmatched.push(v);
    else (leaf.testValue(list ? JSON.parse(v) : v) ? accepted : refused).push(v);
  }
  if (accepted.length === 0 && !nullAccepted) return () => FALSE;
  return (ref) => {
    const values =
      accepted.length <= refused.length
        ? inValueSet(db, ref, accepted)
        : refused.length
          ? sql<SqlBool>`(${ref} is not null and not ${inValueSet(db, ref, refused)})`
          : sql<SqlBool>`${ref} is not null`;
    const nonNull = accepted.length ? values : FALSE;
    return nullAccepted ? or([nonNull, sql<SqlBool>`${ref} is null`]) : nonNull;
  };
}

/** A comparison or `in` as SQL with the compiler's null rules: a missing value satisfies only `<> x` and `not_in`. */
function plainLeaf(leaf: Leaf, ref: Expression<unknown>): Bool {
  const [, op, raw] = leaf.condition;
  const bind = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
  if (op === 'in' || op === 'not_in') {
    const values = raw as unknown[];
    const present = values.filter((v) => v !== null).map(bind);
    const hasNull = present.length < values.length;
    const inSet = present.length ? sql<SqlBool>`${ref} in (${sql.join(present)})` : FALSE;
    if (op === 'in') return hasNull ? or([inSet, sql<SqlBool>`${ref} is null`]) : inSet;
    if (!present.length) return sql<SqlBool>`${ref} is not null`;
    return hasNull
      ? sql<SqlBool>`(${ref} is not null and ${ref} not in (${sql.join(present)}))`
      : sql<SqlBool>`(${ref} is null or ${ref} not in (${sql.join(present)}))`;
  }
  if (raw === null) return op === '=' ? sql<SqlBool>`${ref} is null` : sql<SqlBool>`${ref} is not null`;
  if (op === '<>') return sql<SqlBool>`(${ref} is null or ${ref} <> ${bind(raw)})`;
  return sql<SqlBool>`${ref} ${sql.raw(op)} ${bind(raw)}`;
}

/**
 * The filter tree as one SQL condition over a subject's rows, built either way: with plain columns,
 * or with columns that must not choose an index (see unindexedRef), for a page read by walking the
 * order's index. Each condition's values are tested once for both.
 */
export async function filterSql(
  db: Db,
  subject: string,
  version: string,
  tree: FilterTree | null,
  scale: Scale,
): Promise<(unindexed: boolean) => Bool> {
  if (!tree) return () => TRUE;
  if (tree.kind === 'leaf') {
    const column = columnOf(tree.field, scale);
    const tested = TESTED_OPERATORS.has(tree.condition[1]) || BACKLINK_FIELDS[tree.field] === 'string[]';
    const build = tested
      ? await testedLeaf(db, subject, version, tree, column)
      : (ref: Expression<unknown>) => plainLeaf(tree, ref);
    return (unindexed) => build(unindexed ? unindexedRef(db, column) : sql.ref(column));
  }
  const parts = await Promise.all(tree.items.map((t) => filterSql(db, subject, version, t, scale)));
  return (unindexed) => {
    const built = parts.map((p) => p(unindexed));
    return tree.kind === 'and' ? and(built) : or(built);
  };
}

/** The order as SQL: each rule with missing values last in either direction, then file order. */
export function orderSql(rules: OrderRule[], scale: Scale): RawBuilder<unknown> {
  const terms = rules.map(
    (r) => sql`${sql.ref(columnOf(r.field, scale))} ${sql.raw(r.desc ? 'desc' : 'asc')} nulls last`,
  );
  return sql.join([...terms, sql`seq asc`]);
}
