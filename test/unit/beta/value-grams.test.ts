import { describe, expect, it } from 'vitest';
import { compileFilterTree, type FieldTable } from '../../../src/server/providers/beta/filter-compiler.js';
import { ValueGrams } from '../../../src/server/providers/beta/local/value-grams.js';
import { rng } from '../../../src/server/providers/beta/seeded.js';

/**
 * A like/ilike condition tests only the values holding its pattern's literal runs (trigrams, ASCII
 * case folded). Held to the plain definition: the compiler's test on every value, over values that
 * mix cases, non-ASCII letters whose case folding is not ASCII's (Kelvin sign, dotted İ, long ſ,
 * German ß), null, and patterns with %, _ and runs of any length.
 */

const FIELDS: FieldTable = { t: 'string' };
const ALPHABET = ['a', 'b', 'c', 'A', 'B', 'C', 'k', 'K', 's', 'S', 'i', 'I', '\u212a', '\u0130', '\u017f', '\u00df', 'é', ' ', '.', '-'];

describe('like/ilike over trigrams of the values', () => {
  it('answers as testing every value does, for every operator and pattern', () => {
    const r = rng(3);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const text = (max: number, from: readonly string[] = ALPHABET) => Array.from({ length: Math.floor(r() * max) }, () => pick(from)).join('');
    const ascii = ALPHABET.filter((ch) => ch.charCodeAt(0) < 128);
    const values: unknown[] = [null, '', ...new Set(Array.from({ length: 3000 }, () => text(12)))];
    const grams = new ValueGrams(values);
    let narrowed = 0;
    for (let k = 0; k < 400; k++) {
      const op = pick(['like', 'ilike', 'not_like', 'not_ilike']);
      const from = r() < 0.7 ? ascii : ALPHABET;
      const pattern = `${pick(['%', '', '_'])}${text(6, from)}${pick(['%', '_', ''])}${text(4, from)}${pick(['%', ''])}`;
      const tree = compileFilterTree(['t', op, pattern], FIELDS)!;
      if (tree.kind !== 'leaf' || !tree.literal) throw new Error('a like condition on a string field carries its literal runs');
      const want = Uint8Array.from(values, (v) => (tree.testValue(v) ? 1 : 0));
      const got = grams.answers(values, tree.literal, tree.testValue);
      if (got) {
        narrowed++;
        expect([...got], `${op} ${JSON.stringify(pattern)}`).toEqual([...want]);
      }
    }
    // Most patterns here have a run of three characters or more: the narrowed path is what is tested.
    expect(narrowed).toBeGreaterThan(150);
  });

  it('lists only the values holding every trigram of a run, in any ASCII case', () => {
    const values = ['Brand Review', 'brand guide', 'REVIEWS', 'revue', null, 'r\u00e9view'];
    const found = new ValueGrams(values).candidates(['review'])!;
    // 'rév' is not ASCII: always tested; the listed ones hold the rarest trigram of the run.
    expect([...found.unindexed]).toEqual([4, 5]);
    expect([...found.listed].every((c) => /review/i.test(values[c] as string) || /iew|vie|evi|rev/i.test(values[c] as string))).toBe(true);
    expect([...found.listed]).toContain(0);
    expect([...found.listed]).toContain(2);
    expect([...found.listed]).not.toContain(1);
    expect(new ValueGrams(values).candidates(['re', '%'])).toBeNull();
  });
});
