import { CliError, EXIT, usageError } from '../exit-codes.js';

/**
 * Shaping of --json output, as gh does it: `--json id,name` keeps those fields of each record,
 * `--jq EXPR` filters through jq (jq-wasm, loaded only when --jq is given, so start-up is
 * unaffected) and prints each result on its own line, strings raw.
 */
export interface JsonShape {
  fields?: string[];
  jq?: string;
}

const FIELD_LIST = /^[A-Za-z_][\w.-]*(,[A-Za-z_][\w.-]*)*$/;

/**
 * Takes the field list out of argv: `--json=id,name`, or `--json id,name` when the next word is a
 * comma-separated list. A lone word after --json (`--json id`) may be a field or an argument
 * (`facet --json keys list`, `facet keys delete --json KEY_ID`): it is left in argv and its index
 * returned as `candidate`, for resolveJsonCandidate to settle once the command tree is known.
 */
export function extractJsonFields(args: string[]): { args: string[]; fields?: string[]; candidate?: number } {
  const out: string[] = [];
  let fields: string[] | undefined;
  let candidate: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a.startsWith('--json=')) {
      const list = a.slice('--json='.length);
      if (!FIELD_LIST.test(list)) throw usageError(`--json takes a comma-separated list of fields, got "${list}"`);
      fields = list.split(',');
      out.push('--json');
    } else if (a === '--json' && i + 1 < args.length && args[i + 1].includes(',') && FIELD_LIST.test(args[i + 1])) {
      fields = args[++i].split(',');
      out.push('--json');
    } else {
      if (a === '--json' && i + 1 < args.length && FIELD_LIST.test(args[i + 1]) && !fields) candidate = out.length + 1;
      out.push(a);
    }
  }
  return { args: out, fields, candidate: fields ? undefined : candidate };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The records a field list selects from, as gh's `--json` selects from a list's items: the list
 * itself, a /v2 page's `items`, or a body's one list of records with its paging beside it
 * (`{total, has_next, next_cursor, tweets: [...]}`) — unless every field named is the body's own
 * (`tasks get --json id` keeps the task, though it holds a list of artifacts). `more` says how
 * much of the whole the records are, for a line on stderr.
 */
export function recordsOf(
  data: unknown,
  fields: string[],
): { records: unknown; more?: { shown: number; total?: number; page?: number } } {
  // A list of list holders (the beta data answers: one result per task, each with its `items`): their items.
  if (Array.isArray(data) && data.length > 0 && !fields.every((f) => data.some((r) => isRecord(r) && f in r))) {
    const inner = data.map((r) => recordsOf(r, fields));
    if (inner.every((r, i) => r.records !== data[i]))
      return { records: inner.flatMap((r) => r.records as unknown[]), more: inner.find((r) => r.more)?.more };
  }
  if (!isRecord(data) || fields.every((f) => f in data)) return { records: data };
  const v2 = pageOf(data);
  if (v2) return { records: v2.items, more: { shown: v2.items.length, total: v2.total, page: v2.page } };
  const lists = Object.entries(data).filter(([, v]) => Array.isArray(v) && v.every((item) => isRecord(item)));
  if (lists.length !== 1) return { records: data };
  // An empty list is the records only beside paging (scalars): a record with an empty list stays a record.
  const besides = Object.entries(data).filter(([k]) => k !== lists[0][0]);
  if ((lists[0][1] as unknown[]).length === 0 && besides.some(([, v]) => v !== null && typeof v === 'object'))
    return { records: data };
  const items = lists[0][1] as unknown[];
  const total = [data.total, data.total_count].find((t): t is number => typeof t === 'number');
  const partial =
    data.has_next === true ||
    Boolean(data.next_cursor) ||
    Boolean(data.search_after_token) ||
    (total !== undefined && total > items.length);
  return { records: items, more: partial ? { shown: items.length, total } : undefined };
}

/**
 * The records of a paged list, which `--jq` filters as `--json FIELDS` selects from them (so
 * `--jq length` counts items, not the page's keys): a /v2 page's `items`, a body whose one list of
 * records sits beside paging scalars alone (`{total, next_cursor, tweets}`), or a list of such bodies
 * (the beta data answers). Any other body (a record, a report with objects beside its list) is
 * undefined: jq sees it whole.
 */
export function pagedRecords(data: unknown): ReturnType<typeof recordsOf> | undefined {
  const holder = (v: unknown) => {
    if (!isRecord(v)) return false;
    const lists = Object.values(v).filter((x) => Array.isArray(x));
    return (
      lists.length === 1 &&
      (lists[0] as unknown[]).every(isRecord) &&
      Object.values(v).every((x) => Array.isArray(x) || x === null || typeof x !== 'object')
    );
  };
  if (Array.isArray(data)) return data.length > 0 && data.every(holder) ? recordsOf(data, ['\0']) : undefined;
  if (pageOf(data) || holder(data)) return recordsOf(data, ['\0']);
  return undefined;
}

/** A /v2 page (`{page, size, total, items}`). */
export function pageOf(data: unknown): { items: unknown[]; page: number; size: number; total: number } | undefined {
  if (!isRecord(data)) return undefined;
  const paging = Object.keys(data).every((k) => ['items', 'page', 'size', 'total'].includes(k));
  if (paging && Array.isArray(data.items) && [data.page, data.size, data.total].every((n) => typeof n === 'number'))
    return data as { items: unknown[]; page: number; size: number; total: number };
  return undefined;
}

function pick(record: unknown, fields: string[]): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  const r = record as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => f in r).map((f) => [f, r[f]]));
}

/** Keeps the named fields of a record, or of each record of a list; an unknown field is a usage error. */
export function selectFields(data: unknown, fields: string[]): unknown {
  const records = (Array.isArray(data) ? data : [data]).filter(
    (r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
  if (records.length > 0) {
    const available = new Set(records.flatMap((r) => Object.keys(r)));
    const unknown = fields.filter((f) => !available.has(f));
    if (unknown.length)
      throw usageError(
        `unknown JSON field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
        `available fields: ${[...available].sort().join(', ')}`,
      );
  }
  return Array.isArray(data) ? data.map((r) => pick(r, fields)) : pick(data, fields);
}

/** jq's output for one value: each result on a line, strings raw (gh's --jq), others as jq prints them. */
export async function runJq(data: unknown, expr: string, compact = false): Promise<string> {
  const jq = await import('jq-wasm');
  try {
    // A record of a stream (NDJSON) stays one line through jq.
    const out = await jq.raw(JSON.stringify(data ?? null), expr, compact ? ['-r', '-c'] : ['-r']);
    return out === '' || out.endsWith('\n') ? out : out + '\n';
  } catch (e) {
    const message = (e as Error).message.trim();
    // A filter that does not compile is the caller's input; a runtime jq error is a failure.
    throw new CliError(`--jq: ${message}`, /compile error/.test(message) ? EXIT.usage : EXIT.failure);
  }
}
