/**
 * A quick necessary test for like and ilike patterns: a value can match only if it contains each of
 * the pattern's literal runs (the text between % and _). The values that fail it are answered
 * without running the pattern's automaton; the rest still run it, so the answer stays the pattern's.
 * Case-insensitive runs compare ASCII-lowercased, and only when both the run and the value are ASCII:
 * Unicode case folding pairs some ASCII letters with other letters (k and the Kelvin sign).
 */

const ASCII = /^[\x00-\x7f]*$/;
const LIKE_OPERATORS = new Set(['like', 'not_like', 'ilike', 'not_ilike']);

/** For a like condition, a test that is false only for values the pattern cannot match; else null. */
export function likeMayMatch(operator: string, pattern: unknown): ((value: string) => boolean) | null {
  if (!LIKE_OPERATORS.has(operator) || typeof pattern !== 'string') return null;
  const runs = pattern.split(/[%_]/).filter((r) => r !== '');
  if (runs.length === 0) return null;
  if (!operator.includes('ilike')) return (value) => runs.every((r) => value.includes(r));
  if (!runs.every((r) => ASCII.test(r))) return null;
  const lowered = runs.map((r) => r.toLowerCase());
  return (value) => {
    if (!ASCII.test(value)) return true;
    const v = value.toLowerCase();
    return lowered.every((r) => v.includes(r));
  };
}
