import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeRefusal } from '../../../src/server/text/json-shape.js';

/** Issue 38: a large body's cost, read from its bytes, agrees with what JSON.parse builds. */
const bytes = (text: string) => new TextEncoder().encode(text);

/** Object members and array items of a parsed value, and the most members of one object. */
function shape(v: unknown): { values: number; members: number } {
  let values = 0;
  let members = 0;
  const walk = (x: unknown) => {
    if (Array.isArray(x)) {
      values += x.length;
      x.forEach(walk);
    } else if (typeof x === 'object' && x !== null) {
      const entries = Object.entries(x);
      values += entries.length;
      members = Math.max(members, entries.length);
      entries.forEach(([, y]) => walk(y));
    }
  };
  walk(v);
  return { values, members };
}

describe('jsonShapeRefusal', () => {
  it('counts what JSON.parse would build, whatever the strings hold', () => {
    const strings = fc.string({ unit: fc.constantFrom('a', '{', '[', ',', ':', '"', '\\', ']', '}', 'é', ' ') });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), strings, (value, s) => {
        const text = JSON.stringify([value, s, { [s]: s }]);
        const { values, members } = shape(JSON.parse(text));
        // Refused exactly when a limit is passed: at the counts it is taken, one under them refused.
        expect(jsonShapeRefusal(bytes(text), { values, members: Math.max(members, 1) })).toBeNull();
        expect(jsonShapeRefusal(bytes(text), { values: values - 1, members: 1_000 })).toMatch(/more than/);
        if (members > 0)
          expect(jsonShapeRefusal(bytes(text), { values: 1e9, members: members - 1 })).toMatch(/members/);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses 700,000 keys, and a flat list past 100,000 values, at the default limits', () => {
    const keys = `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonShapeRefusal(bytes(keys))).toBe('an object of the body has more than 10000 members');
    expect(jsonShapeRefusal(bytes(`[${'0,'.repeat(100_000)}0]`))).toBe('the body holds more than 100000 JSON values');
    expect(jsonShapeRefusal(bytes(`[${'0,'.repeat(99_999)}0]`))).toBeNull();
    expect(jsonShapeRefusal(bytes(JSON.stringify({ text: '{"a":1,'.repeat(200_000) })))).toBeNull();
  });
});
