import { FILTER_OPERATORS, MAX_FILTER_CONDITIONS } from '../../../contract/beta-seo.js';
import { usageError } from '../../exit-codes.js';

/**
 * The readable filters of `facet beta` (`--filter 'rank > 50' --filter 'dofollow = true'`) compiled
 * to the provider's array form. One --filter holds conditions joined by "and"/"or" (and binds
 * tighter, as on the server); several --filter flags are joined by "and", each as its own group.
 * Values: numbers, true/false, null, 'quoted' or "quoted" strings, lists (a, b) or [a, b] for in and
 * not_in; any other bare word is a string.
 */

type Condition = [string, string, unknown];
type Node = Condition | Array<Node | 'and' | 'or'>;

const OPS = [...FILTER_OPERATORS].sort((a, b) => b.length - a.length);
const WORD_OPS = OPS.filter((o) => /^[a-z_]+$/.test(o));
const SYMBOL_OPS = OPS.filter((o) => !/^[a-z_]+$/.test(o));

function parseScalar(raw: string): unknown {
  const s = raw.trim();
  if (/^'.*'$|^".*"$/s.test(s)) return s.slice(1, -1);
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (s === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  return s;
}

function parseValue(raw: string, op: string): unknown {
  const s = raw.trim();
  if (op === 'in' || op === 'not_in') {
    const inner = /^\((.*)\)$|^\[(.*)\]$/s.exec(s);
    const body = inner ? (inner[1] ?? inner[2]) : s;
    return body
      .split(',')
      .map(parseScalar)
      .filter((v) => v !== '');
  }
  return parseScalar(s);
}

/** Splits on a joiner word outside quotes. */
function splitJoiners(expr: string): Array<string> {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  const tokens = expr.split(/(\s+)/);
  for (const tok of tokens) {
    if (!quote && /^(and|or)$/i.test(tok) && current.trim()) {
      parts.push(current.trim(), tok.toLowerCase());
      current = '';
      continue;
    }
    for (const ch of tok) {
      if (quote ? ch === quote : ch === "'" || ch === '"') quote = quote ? null : ch;
    }
    current += tok;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

function parseCondition(text: string): Condition {
  const word = new RegExp(`^([\\w.]+)\\s+(${WORD_OPS.join('|')})\\s+(.+)$`, 's').exec(text);
  if (word) return [word[1], word[2], parseValue(word[3], word[2])];
  for (const op of SYMBOL_OPS) {
    const at = text.indexOf(op);
    if (at <= 0) continue;
    const field = text.slice(0, at).trim();
    const value = text.slice(at + op.length);
    if (!/^[\w.]+$/.test(field) || !value.trim()) continue;
    // "<" must not be read out of "<=" or "<>": the longest operator at the position wins.
    return [field, op, parseValue(value, op)];
  }
  throw usageError(
    `--filter ${JSON.stringify(text)}: expected FIELD OP VALUE, with OP one of ${FILTER_OPERATORS.join(' ')}`,
    "for example --filter 'rank > 50' --filter 'anchor ilike \"%shoes%\"'",
  );
}

function parseOne(expr: string): Node {
  const parts = splitJoiners(expr);
  if (parts.length === 1) return parseCondition(parts[0]);
  return parts.map((p, i) => (i % 2 === 1 ? (p as 'and' | 'or') : parseCondition(p)));
}

/** The provider array of the --filter flags, or undefined when none was given. */
export function compileFilterFlags(flags: string[] | undefined): unknown[] | undefined {
  if (!flags || flags.length === 0) return undefined;
  const nodes = flags.map(parseOne);
  const count = (n: Node): number =>
    typeof n[0] === 'string' && n.length === 3 && !Array.isArray(n[0]) && !['and', 'or'].includes(n[0])
      ? 1
      : (n as Node[]).filter(Array.isArray).reduce((s, c) => s + count(c), 0);
  const total = nodes.reduce((s, n) => s + count(n), 0);
  if (total > MAX_FILTER_CONDITIONS)
    throw usageError(`${total} filter conditions; the provider allows at most ${MAX_FILTER_CONDITIONS}`);
  if (nodes.length === 1) return nodes[0];
  return nodes.flatMap((n, i) => (i === 0 ? [n] : ['and', n]));
}
