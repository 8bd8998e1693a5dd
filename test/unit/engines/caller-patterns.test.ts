import { describe, expect, it } from 'vitest';
import {
  checkSchemaPatterns,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_PROGRAM,
  patternMatches,
  toRe2Syntax,
} from '../../../src/server/engines/gateway/caller-patterns.js';
import { HttpError } from '../../../src/server/errors.js';

const refusal = (schema: unknown): HttpError | undefined => {
  try {
    checkSchemaPatterns(schema, 'response_format');
    return undefined;
  } catch (err) {
    return err as HttpError;
  }
};

describe('caller patterns on RE2', () => {
  it('spells ECMA-262 \\u escapes the RE2 way and leaves escaped backslashes alone', () => {
    expect(toRe2Syntax('^\\u00e9\\u{1F600}$')).toBe('^\\x{00e9}\\x{1F600}$');
    expect(toRe2Syntax('\\\\u0041')).toBe('\\\\u0041');
    expect(patternMatches('^\\u00e9+$', 'éé')).toBe(true);
    expect(patternMatches('^[A-Z]\\d{2}$', 'B12')).toBe(true);
    expect(patternMatches('^[A-Z]\\d{2}$', 'b12')).toBe(false);
    expect(patternMatches('b', 'abc')).toBe(true);
  });

  it('runs a catastrophic-backtracking pattern as a plain non-match', () => {
    expect(patternMatches('^(a+)+$', 'a'.repeat(5000) + '!')).toBe(false);
    expect(patternMatches('^(a+)+$', 'a'.repeat(5000))).toBe(true);
  });

  it('refuses backreferences and lookaround with a 400 naming the pattern', () => {
    for (const pattern of ['(a)\\1', '(?=a)a', '(?!a)b', '(?<=a)b', '(?<!a)b']) {
      const err = refusal({ type: 'object', properties: { v: { type: 'string', pattern } } });
      expect(err, pattern).toBeInstanceOf(HttpError);
      expect(err!.status).toBe(400);
      expect(err!.code).toBe('invalid_parameter');
      expect(err!.extra).toEqual({ param: 'response_format' });
      expect(err!.message).toContain(JSON.stringify(pattern));
    }
  });

  it('checks patterns wherever a subschema can hold one, and only there', () => {
    expect(refusal({ $defs: { X: { items: { anyOf: [{ pattern: '(?=x)' }] } } } })).toBeInstanceOf(HttpError);
    // A property named "pattern", and data keywords, are not patterns.
    expect(
      refusal({
        properties: { pattern: { type: 'string' } },
        const: { pattern: '(?=x)' },
        examples: [{ pattern: '(?=x)' }],
        default: { pattern: '\\1' },
        enum: [{ pattern: '(?=' }],
      }),
    ).toBeUndefined();
    expect(refusal({ properties: { pattern: { type: 'string', pattern: '(?=x)' } } })).toBeInstanceOf(HttpError);
  });

  it('walks a deeply nested schema without overflowing the stack', () => {
    let schema: Record<string, unknown> = { type: 'string', pattern: '(?=x)' };
    for (let i = 0; i < 100_000; i++) schema = { items: schema };
    expect(refusal(schema)).toBeInstanceOf(HttpError);
  });

  it('accepts a pattern at the length limit and refuses one past it', () => {
    expect(refusal({ pattern: 'a'.repeat(MAX_PATTERN_LENGTH) })).toBeUndefined();
    expect(refusal({ pattern: 'a'.repeat(MAX_PATTERN_LENGTH + 1) })!.message).toContain(
      `${MAX_PATTERN_LENGTH + 1} characters long, at most ${MAX_PATTERN_LENGTH}`,
    );
  });

  it('accepts a pattern at the program limit and refuses one past it', () => {
    // x{n} compiles to n instructions plus two (the match and the start); x{a}y{b} to a+b+2.
    const at = `x{1000}y{${MAX_PATTERN_PROGRAM - 1002}}`;
    const past = `x{1000}y{${MAX_PATTERN_PROGRAM - 1001}}`;
    expect(refusal({ pattern: at })).toBeUndefined();
    expect(refusal({ pattern: past })!.message).toContain(
      `compiles to ${MAX_PATTERN_PROGRAM + 1} RE2 instructions, at most ${MAX_PATTERN_PROGRAM}`,
    );
  });
});
