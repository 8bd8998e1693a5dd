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

/**
 * A /v2 page (`{page, size, total, items}`): with a field list its records are the items, so
 * `livedocs list --json short_id` selects fields of the LiveDocs, not of the page.
 */
export function pageOf(data: unknown): { items: unknown[]; page: number; size: number; total: number } | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  const paging = Object.keys(d).every((k) => ['items', 'page', 'size', 'total'].includes(k));
  if (
    paging &&
    Array.isArray(d.items) &&
    typeof d.page === 'number' &&
    typeof d.size === 'number' &&
    typeof d.total === 'number'
  ) {
    return d as { items: unknown[]; page: number; size: number; total: number };
  }
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
export async function runJq(data: unknown, expr: string): Promise<string> {
  const jq = await import('jq-wasm');
  try {
    const out = await jq.raw(JSON.stringify(data ?? null), expr, ['-r']);
    return out === '' || out.endsWith('\n') ? out : out + '\n';
  } catch (e) {
    const message = (e as Error).message.trim();
    // A filter that does not compile is the caller's input; a runtime jq error is a failure.
    throw new CliError(`--jq: ${message}`, /compile error/.test(message) ? EXIT.usage : EXIT.failure);
  }
}
