import { RE2JS } from 're2js';

/**
 * Caller patterns of the beta filters (`like` family and `regex`) run in re2js, a linear-time
 * engine: a pattern such as `%a%a%a%a%b` or `(a+)+$` costs the same per character as any other,
 * where the backtracking RegExp engine took minutes on one value.
 */

/** A pattern the engine refuses (the filter compiler answers it as an invalid filter). */
export class PatternError extends Error {}

/** A compiled caller pattern: does the value match? */
export type PatternTest = (value: string) => boolean;

/**
 * A SQL LIKE pattern (% any run, _ one character, everything else literal) as a whole-value test;
 * `insensitive` for ilike. Literal runs are quoted, so no caller text is read as regex syntax.
 */
export function likePattern(pattern: string, insensitive: boolean): PatternTest {
  const body = pattern
    .split(/([%_])/)
    .map((part) => (part === '%' ? '.*' : part === '_' ? '.' : part === '' ? '' : RE2JS.quote(part)))
    .join('');
  const re = RE2JS.compile(body, RE2JS.DOTALL | (insensitive ? RE2JS.CASE_INSENSITIVE : 0));
  return (value) => re.testExact(value);
}

/**
 * A caller regex (JavaScript syntax where RE2 has the same feature) as a search anywhere in the
 * value. Lookarounds and backreferences have no linear-time implementation and are refused.
 */
export function regexPattern(pattern: string): PatternTest {
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (err) {
    throw new PatternError(String((err as Error).message ?? err));
  }
  return (value) => re.test(value);
}
