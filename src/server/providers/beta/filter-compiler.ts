import {
  FILTER_LIMITS,
  FILTER_OPERATORS,
  MAX_FILTER_CONDITIONS,
  MAX_ORDER_RULES,
  type FilterOperator,
} from '../../../contract/beta-seo.js';
import { likePattern, PatternError, regexPattern } from './patterns.js';

/**
 * The one filter compiler of the beta SEO endpoints: `filters` ([field, op, value] conditions joined
 * by "and"/"or", nested arrays for grouping) and `order_by` ("field,asc|desc") become a predicate
 * and a comparator over the endpoint's rows. Each endpoint hands its field table (dotted path ->
 * type), so an unknown field or a value of the wrong type is refused before any row is read.
 * "and" binds tighter than "or", as in SQL.
 */

export type FieldType = 'number' | 'string' | 'boolean' | 'date' | 'string[]';
export type FieldTable = Readonly<Record<string, FieldType>>;
/** Any record; fields are read by dotted path. */
export type Row = object;

export class FilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilterError';
  }
}

const OPS_BY_TYPE: Record<FieldType, readonly FilterOperator[]> = {
  number: ['=', '<>', '<', '<=', '>', '>=', 'in', 'not_in'],
  date: ['=', '<>', '<', '<=', '>', '>='],
  boolean: ['=', '<>'],
  // A string field takes every operator of the language.
  string: FILTER_OPERATORS,
  // An array field matches when any of its elements does ("attributes in ['nofollow']").
  'string[]': ['in', 'not_in', 'like', 'not_like', 'ilike', 'not_ilike', 'match', 'not_match'],
};

const {
  maxPattern: MAX_PATTERN,
  maxInValues: MAX_IN_VALUES,
  maxPatternConditions: MAX_PATTERN_CONDITIONS,
  maxDepth: MAX_DEPTH,
} = FILTER_LIMITS;

const PATTERN_OPERATORS: readonly string[] = ['like', 'not_like', 'ilike', 'not_ilike', 'regex', 'not_regex'];

/** Caller JSON in a message: at most 100 characters of it, and never a failure of its own. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = '(a value too deep to show)';
  }
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

export function valueAt(row: Row, path: string): unknown {
  let v: unknown = row;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export type Predicate = (row: Row) => boolean;

function checkScalar(field: string, type: FieldType, value: unknown): void {
  if (value === null) return;
  const want = type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : 'string';
  if (typeof value !== want || (want === 'number' && !Number.isFinite(value))) {
    throw new FilterError(
      `filter on ${field}: value ${shown(value)} is not a ${type === 'string[]' ? 'string' : type}`,
    );
  }
}

/** A test on one value of a field (what a condition asks of the value its row holds there). */
export type ValueTest = (value: unknown) => boolean;

/** A condition as a test on its field's value: the row predicate is that test on `valueAt(row, field)`. */
function compileCondition(cond: unknown[], fields: FieldTable): ValueTest {
  if (cond.length !== 3) throw new FilterError(`a condition is [field, operator, value]; got ${shown(cond)}`);
  const [field, op, value] = cond;
  if (typeof field !== 'string') throw new FilterError(`a condition's field must be a string; got ${shown(field)}`);
  const type = fields[field];
  if (!type) throw new FilterError(`unknown filter field: ${field}`);
  if (typeof op !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(op))
    throw new FilterError(`unknown operator ${shown(op)} on ${field}; operators: ${FILTER_OPERATORS.join(' ')}`);
  const operator = op as FilterOperator;
  if (!OPS_BY_TYPE[type].includes(operator))
    throw new FilterError(
      `operator ${operator} does not apply to ${field} (${type}); use one of ${OPS_BY_TYPE[type].join(' ')}`,
    );

  const anyOf = (test: ValueTest): ValueTest => (type === 'string[]' ? (v) => Array.isArray(v) && v.some(test) : test);
  const negate =
    (p: ValueTest): ValueTest =>
    (v) =>
      !p(v);

  switch (operator) {
    case 'in':
    case 'not_in': {
      if (!Array.isArray(value) || value.length === 0)
        throw new FilterError(`${operator} on ${field} takes a non-empty array of values`);
      if (value.length > MAX_IN_VALUES)
        throw new FilterError(`${operator} on ${field} takes at most ${MAX_IN_VALUES} values; got ${value.length}`);
      for (const v of value) checkScalar(field, type, v);
      const set = new Set(value);
      const p = anyOf((v) => set.has(v));
      return operator === 'in' ? p : negate(p);
    }
    case 'like':
    case 'not_like':
    case 'ilike':
    case 'not_ilike': {
      if (typeof value !== 'string')
        throw new FilterError(`${operator} on ${field} takes a string pattern (% any run, _ one character)`);
      if (value.length > MAX_PATTERN)
        throw new FilterError(`${operator} on ${field}: the pattern is longer than ${MAX_PATTERN} characters`);
      const test = likePattern(value, operator.includes('ilike'));
      const p = anyOf((v) => typeof v === 'string' && test(v));
      return operator.startsWith('not_') ? negate(p) : p;
    }
    case 'regex':
    case 'not_regex': {
      if (typeof value !== 'string') throw new FilterError(`${operator} on ${field} takes a string pattern`);
      if (value.length > MAX_PATTERN)
        throw new FilterError(`regex on ${field} is longer than ${MAX_PATTERN} characters`);
      let test: (value: string) => boolean;
      try {
        test = regexPattern(value);
      } catch (err) {
        if (!(err instanceof PatternError)) throw err;
        throw new FilterError(
          `regex on ${field} does not compile (RE2 syntax: no lookarounds or backreferences): ${err.message}`,
        );
      }
      const p = anyOf((v) => typeof v === 'string' && test(v));
      return operator === 'regex' ? p : negate(p);
    }
    case 'match':
    case 'not_match': {
      // Full-text match: every word of the value appears as a word of the field, any case.
      if (typeof value !== 'string' || words(value).length === 0)
        throw new FilterError(`${operator} on ${field} takes a string with at least one word`);
      const wanted = words(value);
      const p = anyOf((v) => {
        if (typeof v !== 'string') return false;
        const have = new Set(words(v));
        return wanted.every((w) => have.has(w));
      });
      return operator === 'match' ? p : negate(p);
    }
    default: {
      checkScalar(field, type, value);
      if (value === null) {
        if (operator === '=') return (v) => v === null || v === undefined;
        if (operator === '<>') return (v) => v !== null && v !== undefined;
        throw new FilterError(`${operator} on ${field} cannot compare with null`);
      }
      const cmp = (v: unknown): number | null => {
        if (v === null || v === undefined) return null;
        if (typeof v === 'number' && typeof value === 'number') return v - value;
        if (typeof v === 'string' && typeof value === 'string') return v < value ? -1 : v > value ? 1 : 0;
        if (typeof v === 'boolean' && typeof value === 'boolean') return v === value ? 0 : 1;
        return null;
      };
      const test: Record<string, (c: number) => boolean> = {
        '=': (c) => c === 0,
        '<>': (c) => c !== 0,
        '<': (c) => c < 0,
        '<=': (c) => c <= 0,
        '>': (c) => c > 0,
        '>=': (c) => c >= 0,
      };
      const t = test[operator];
      // A missing value never satisfies a comparison, except "<> x" (it is not x).
      return (v) => {
        const c = cmp(v);
        return c === null ? operator === '<>' : t(c);
      };
    }
  }
}

const isCondition = (node: unknown[]): boolean =>
  typeof node[0] === 'string' && node.length === 3 && typeof node[1] === 'string' && !['and', 'or'].includes(node[0]);

/**
 * A compiled filter as a tree: "or" of "and"s of leaves. A leaf keeps its checked condition (a SQL
 * store compiles it to an expression, local/backlink-sql.ts) and its test, which reads only its own
 * field, so it can also run once per distinct value of that field rather than once per row.
 */
export type FilterTree =
  | {
      kind: 'leaf';
      field: string;
      test: Predicate;
      /** The same test on the field's value alone: `test(row) === testValue(valueAt(row, field))`. */
      testValue: ValueTest;
      /** The condition as checked: [field, operator, value]. */
      condition: readonly [string, FilterOperator, unknown];
      /** The condition as JSON: equal keys, equal tests. */
      key: string;
    }
  | { kind: 'and' | 'or'; items: FilterTree[] };

interface Counts {
  conditions: number;
  patterns: number;
}

function compileNode(node: unknown, fields: FieldTable, count: Counts, depth: number): FilterTree {
  if (!Array.isArray(node)) throw new FilterError(`filters must be arrays; got ${shown(node)}`);
  if (depth > MAX_DEPTH) throw new FilterError(`filters are nested more than ${MAX_DEPTH} groups deep`);
  if (isCondition(node)) {
    count.conditions += 1;
    if (count.conditions > MAX_FILTER_CONDITIONS)
      throw new FilterError(`at most ${MAX_FILTER_CONDITIONS} filter conditions are allowed`);
    if (PATTERN_OPERATORS.includes(node[1] as string) && ++count.patterns > MAX_PATTERN_CONDITIONS) {
      throw new FilterError(
        `at most ${MAX_PATTERN_CONDITIONS} like, ilike and regex conditions (or their negations) are allowed`,
      );
    }
    const field = node[0] as string;
    const testValue = compileCondition(node, fields);
    return {
      kind: 'leaf',
      field,
      test: (row) => testValue(valueAt(row, field)),
      testValue,
      condition: [field, node[1] as FilterOperator, node[2]],
      key: JSON.stringify(node),
    };
  }
  if (node.length === 0) throw new FilterError('an empty filter group');
  if (node.length % 2 === 0)
    throw new FilterError('a filter group alternates conditions and "and"/"or": [cond, "and", cond, ...]');
  // Split on "or" first: each part is a run of "and"s.
  const orParts: FilterTree[][] = [[]];
  node.forEach((item, i) => {
    if (i % 2 === 1) {
      if (item !== 'and' && item !== 'or')
        throw new FilterError(`conditions are joined by "and" or "or"; got ${shown(item)}`);
      if (item === 'or') orParts.push([]);
      return;
    }
    orParts[orParts.length - 1].push(compileNode(item, fields, count, depth + 1));
  });
  const ands: FilterTree[] = orParts.map((items) => (items.length === 1 ? items[0] : { kind: 'and', items }));
  return ands.length === 1 ? ands[0] : { kind: 'or', items: ands };
}

/** Compiles `filters` to a tree; undefined, null or [] is null (keep every row). */
export function compileFilterTree(filters: unknown, fields: FieldTable): FilterTree | null {
  if (filters === undefined || filters === null) return null;
  if (!Array.isArray(filters)) throw new FilterError('filters must be an array');
  if (filters.length === 0) return null;
  return compileNode(filters, fields, { conditions: 0, patterns: 0 }, 0);
}

function predicateOf(tree: FilterTree): Predicate {
  if (tree.kind === 'leaf') return tree.test;
  const parts = tree.items.map(predicateOf);
  return tree.kind === 'and' ? (row) => parts.every((p) => p(row)) : (row) => parts.some((p) => p(row));
}

/** Compiles `filters`; undefined or [] keeps every row. */
export function compileFilters(filters: unknown, fields: FieldTable): Predicate {
  const tree = compileFilterTree(filters, fields);
  return tree ? predicateOf(tree) : () => true;
}

export interface OrderRule {
  field: string;
  desc: boolean;
}

/** Parses `order_by`: at most 3 "field,asc|desc" rules on known fields that have an order. */
export function parseOrder(orderBy: unknown, fields: FieldTable): OrderRule[] {
  if (orderBy === undefined || orderBy === null) return [];
  if (!Array.isArray(orderBy)) throw new FilterError('order_by must be an array of "field,asc|desc" strings');
  if (orderBy.length > MAX_ORDER_RULES) throw new FilterError(`at most ${MAX_ORDER_RULES} order_by rules are allowed`);
  return orderBy.map((rule) => {
    const m = typeof rule === 'string' ? /^\s*([\w.]+)\s*,\s*(asc|desc)\s*$/i.exec(rule) : null;
    if (!m) throw new FilterError(`order_by rule ${shown(rule)} is not "field,asc" or "field,desc"`);
    const type = fields[m[1]];
    if (!type) throw new FilterError(`unknown order_by field: ${m[1]}`);
    if (type === 'string[]') throw new FilterError(`${m[1]} is a list and cannot be ordered`);
    return { field: m[1], desc: m[2].toLowerCase() === 'desc' };
  });
}

/** A comparator for the rules; missing values sort last whatever the direction. */
export function comparator(rules: OrderRule[]): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const { field, desc } of rules) {
      const x = valueAt(a, field);
      const y = valueAt(b, field);
      if (x === y) continue;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      const c = x < y ? -1 : x > y ? 1 : 0;
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
}
