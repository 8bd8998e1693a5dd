import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { likeMayMatch } from '../../../src/server/providers/beta/local/backlinks-like.js';
import { likePattern } from '../../../src/server/providers/beta/patterns.js';

// Letters whose case folding crosses ASCII (Kelvin sign, long s, dotless and dotted i) next to ASCII.
const chars = fc.constantFrom('a', 'b', 'k', 'K', 's', 'S', 'i', 'I', '\u212a', '\u017f', '\u0131', '\u0130', 'é', ' ');
const text = fc.array(chars, { maxLength: 8 }).map((a) => a.join(''));
const pattern = fc.array(fc.oneof(chars, fc.constantFrom('%', '_')), { maxLength: 6 }).map((a) => a.join(''));

describe('likeMayMatch', () => {
  it('never refuses a value the pattern matches, in any like operator', () => {
    fc.assert(
      fc.property(pattern, text, fc.boolean(), (p, v, insensitive) => {
        const may = likeMayMatch(insensitive ? 'ilike' : 'like', p);
        if (may && likePattern(p, insensitive)(v)) expect(may(v)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses values missing a literal run, and has no test for other operators', () => {
    expect(likeMayMatch('ilike', '%rev%')!('Great REVIEW')).toBe(true);
    expect(likeMayMatch('ilike', '%rev%')!('homepage')).toBe(false);
    expect(likeMayMatch('not_like', 'a_b%c')!('xxc')).toBe(false);
    expect(likeMayMatch('like', '%Rev%')!('review')).toBe(false);
    expect(likeMayMatch('like', '%%')).toBeNull();
    expect(likeMayMatch('regex', 'rev')).toBeNull();
    expect(likeMayMatch('ilike', '%\u212a%')).toBeNull();
  });
});
