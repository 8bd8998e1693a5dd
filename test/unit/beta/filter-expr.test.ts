import { describe, expect, it } from 'vitest';
import { compileFilterFlags } from '../../../src/cli/commands/beta/filter-expr.js';

describe('readable --filter expressions', () => {
  it.each([
    [['rank > 50'], ['rank', '>', 50]],
    [['rank>=50'], ['rank', '>=', 50]],
    [['rank <> 5'], ['rank', '<>', 5]],
    [['rank <= 5'], ['rank', '<=', 5]],
    [['dofollow = true'], ['dofollow', '=', true]],
    [['prev_seen = null'], ['prev_seen', '=', null]],
    [["anchor ilike '%shoes%'"], ['anchor', 'ilike', '%shoes%']],
    [['anchor not_like "%a and b%"'], ['anchor', 'not_like', '%a and b%']],
    [['item_type in (image, redirect)'], ['item_type', 'in', ['image', 'redirect']]],
    [['rank not_in [1,2]'], ['rank', 'not_in', [1, 2]]],
    [['metrics.organic.count > 1000'], ['metrics.organic.count', '>', 1000]],
    [["tld = '10'"], ['tld', '=', '10']],
    [["anchor = 'a>=b'"], ['anchor', '=', 'a>=b']],
    [
      ['rank > 50', 'dofollow = true'],
      [['rank', '>', 50], 'and', ['dofollow', '=', true]],
    ],
    [['rank > 50 or dofollow = true'], [['rank', '>', 50], 'or', ['dofollow', '=', true]]],
    [
      ['rank > 50 or dofollow = true', 'is_lost = false'],
      [[['rank', '>', 50], 'or', ['dofollow', '=', true]], 'and', ['is_lost', '=', false]],
    ],
  ])('%j', (flags, expected) => {
    expect(compileFilterFlags(flags)).toEqual(expected);
  });

  it('no flags, no filters', () => {
    expect(compileFilterFlags(undefined)).toBeUndefined();
    expect(compileFilterFlags([])).toBeUndefined();
  });

  it('refuses what is not FIELD OP VALUE, and a ninth condition, as usage errors', () => {
    expect(() => compileFilterFlags(['rank'])).toThrow(/expected FIELD OP VALUE/);
    expect(() => compileFilterFlags(['rank ~ 5'])).toThrow(/expected FIELD OP VALUE/);
    const nine = Array.from({ length: 9 }, (_, i) => `rank > ${i}`);
    expect(() => compileFilterFlags(nine)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/at most 8/) }),
    );
  });
});
