import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import { HttpError } from '../../errors.js';

/**
 * Regular expressions built from caller text run on RE2 (re2js), whose matching time is linear in
 * the text: a JSON Schema `pattern` such as `^(a+)+$` cannot backtrack for seconds on the event
 * loop. RE2 has no backreferences or lookaround; such a pattern is refused at the boundary
 * (checkSchemaPatterns) rather than run on a backtracking engine.
 */

/** Longest `pattern` accepted, in characters: parsing is linear in it, but is paid per request. */
export const MAX_PATTERN_LENGTH = 1000;
/** Largest compiled pattern, in RE2 instructions: matching costs up to this much per character. */
export const MAX_PATTERN_PROGRAM = 2000;

/** Compiled patterns, the most recently used 256. */
const cache = new LRUCache<string, RE2JS>({ max: 256 });

/** ECMA-262 escapes RE2 spells differently: \uXXXX and \u{X…} become \x{…}; the rest is shared. */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const rest = pattern.slice(i + 1);
    const m = /^u([0-9A-Fa-f]{4})/.exec(rest) ?? /^u\{([0-9A-Fa-f]{1,6})\}/.exec(rest);
    if (m) {
      out += `\\x{${m[1]}}`;
      i += m[0].length;
    } else {
      out += ch + (pattern[i + 1] ?? '');
      i++;
    }
  }
  return out;
}

/**
 * Why RE2 cannot run the pattern, or the compiled pattern. The limits apply to a caller's own
 * pattern; one the server builds around quoted caller text is a literal, cheap at any length.
 */
function compile(pattern: string, flags = 0, limited = true): RE2JS | string {
  const key = `${flags}:${limited}:${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  if (limited && pattern.length > MAX_PATTERN_LENGTH)
    return `it is ${pattern.length} characters long, at most ${MAX_PATTERN_LENGTH} are accepted`;
  let re: RE2JS;
  try {
    re = RE2JS.compile(toRe2Syntax(pattern), flags);
  } catch (err) {
    const reason = (err as Error).message.replace(/^error parsing regexp: /, '');
    return `${reason} (patterns run on RE2: no backreferences or lookaround)`;
  }
  if (limited && re.programSize() > MAX_PATTERN_PROGRAM)
    return `it compiles to ${re.programSize()} RE2 instructions, at most ${MAX_PATTERN_PROGRAM} are accepted`;
  if (pattern.length > MAX_PATTERN_LENGTH) return re;
  cache.set(key, re);
  return re;
}

/** Whether a caller's pattern matches anywhere in the value; a pattern RE2 cannot run never decides (true). */
export function patternMatches(pattern: string, value: string): boolean {
  const re = compile(pattern);
  return typeof re === 'string' ? true : re.test(value);
}

/**
 * The first match of a pattern the server builds around caller text (quoted with RE2JS.quote), as
 * RegExp.exec gives it: RE2, so a caller's name or text cannot make it backtrack.
 */
export function execBuilt(
  pattern: string,
  text: string,
  options: { ignoreCase?: boolean } = {},
): (RegExpExecArray & string[]) | null {
  const re = compile(pattern, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0, false);
  if (typeof re === 'string') throw new Error(`built pattern ${pattern}: ${re}`);
  return re.exec(text) as (RegExpExecArray & string[]) | null;
}

export const quote = (literal: string) => RE2JS.quote(literal);

/** Keywords whose values are data, not subschemas: a `pattern` inside them is never run. */
const DATA = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose values map names to subschemas: a key named `pattern` there is a property. */
const NAMED = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);

/**
 * Refuses a schema with a `pattern` RE2 cannot run or that is past the limits above, with a 400
 * naming the pattern; `param` is the request field that holds the schema. Iterative, so a deeply
 * nested schema cannot overflow the stack.
 */
export function checkSchemaPatterns(schema: unknown, param: string): void {
  const stack: Array<{ node: unknown; named: boolean }> = [{ node: schema, named: false }];
  while (stack.length) {
    const { node, named } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, named: false });
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (named) {
        stack.push({ node: value, named: false });
      } else if (key === 'pattern' && typeof value === 'string') {
        const re = compile(value);
        if (typeof re === 'string')
          throw new HttpError(
            'invalid_parameter',
            `${param}: the pattern ${JSON.stringify(value)} cannot be used: ${re}`,
            { status: 400, extra: { param } },
          );
      } else if (!DATA.has(key)) {
        stack.push({ node: value, named: NAMED.has(key) });
      }
    }
  }
}
