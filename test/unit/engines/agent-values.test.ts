import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringForPattern } from '../../../src/server/engines/gateway/pattern-values.js';
import { UnsatisfiableSchema, valueFromSchema } from '../../../src/server/engines/gateway/schema-values.js';
import { SCHEMA_TABLE, UNSATISFIABLE, schemaJudge } from '../../helpers/schema-table.js';

/** facet-agent's values (issue 27, items 4 and 5): valid whatever the text, written from patterns, found in natural phrases. */
const judge = schemaJudge();

/** Texts of the kinds that offer values: phrases, quotes, numbers, `name: value` pairs, noise. */
const texts = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'in Paris',
          'for "New York"',
          'from Lisbon to Kyiv',
          'named Ada',
          'about "x"',
          'city: Oslo',
          'qty=500',
          'age 17',
          '-3.5',
          '#zz',
          'the',
          'Widget',
          'sku: abc',
        ),
        fc.string({ maxLength: 12 }),
        fc.integer({ min: -1000, max: 1000 }).map(String),
      ),
      { maxLength: 12 },
    )
    .map((words) => words.join(' ')),
);

describe('values written from a schema', () => {
  it.each(SCHEMA_TABLE)('%s: valid (Ajv) and the same for the same text, whatever the text', (_name, schema) => {
    fc.assert(
      fc.property(texts, (text) => {
        const value = valueFromSchema(schema, text);
        expect(judge(schema, value), JSON.stringify(text)).toBeNull();
        expect(valueFromSchema(schema, text)).toEqual(value);
      }),
      { numRuns: 60, seed: 27 },
    );
  });

  it.each(UNSATISFIABLE)('%s: refused, never answered invalid', (_name, schema) => {
    expect(() => valueFromSchema(schema, 'some text')).toThrow(UnsatisfiableSchema);
  });

  it('a recursion ends in empty arrays and omitted optional fields, never a null string', () => {
    const tree = SCHEMA_TABLE.find(([n]) => n.startsWith('recursive tree'))![1];
    expect(valueFromSchema(tree, '')).toEqual({ name: 'name', children: [{ name: 'name', children: [] }] });
    const optional = {
      $defs: {
        N: {
          type: 'object',
          properties: { label: { type: 'string' }, next: { $ref: '#/$defs/N' } },
          required: ['label'],
        },
      },
      $ref: '#/$defs/N',
    };
    expect(valueFromSchema(optional, 'next: x')).toEqual({ label: 'label', next: { label: 'label' } });
  });

  it('unions over recursions give up within the step budget rather than search exponentially', () => {
    const N = {
      anyOf: [
        { type: 'object', properties: { a: { $ref: '#/$defs/N' }, b: { $ref: '#/$defs/N' } }, required: ['a', 'b'] },
        { type: 'object', properties: { c: { $ref: '#/$defs/N' } }, required: ['c'] },
      ],
    };
    expect(() => valueFromSchema({ $defs: { N }, $ref: '#/$defs/N' }, '')).toThrow(UnsatisfiableSchema);
  });

  it('a value the text offers is kept only when valid; else one is written from the pattern', () => {
    const schema = {
      type: 'object',
      properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } },
      required: ['sku'],
    };
    expect(valueFromSchema(schema, 'sku: ABC-1234')).toEqual({ sku: 'ABC-1234' });
    expect(valueFromSchema(schema, 'sku: abc')).toEqual({ sku: 'AAA-0000' });
  });
});

describe('strings written from a pattern', () => {
  it.each([
    ['^\\d{5}(-\\d{4})?$', 0, '00000'],
    ['^[a-z0-9]+(?:-[a-z0-9]+)*$', 12, 'aaaa-aaaa-aaaa-aaaa'],
    ['^(?:red|green|blue)$', 0, 'red'],
    ['^(foo|bar)baz$', 0, 'foobaz'],
    ['^[^aA0_-]{3}$', 0, '...'],
    ['^\\p{Lu}\\p{Ll}+$', 0, 'Aa'],
    ['^\\P{L}+$', 0, '0'],
    ['^[\\u00e9-\\u00ea]x$', 0, 'éx'],
    ['^\\+[1-9]\\d{7,14}$', 0, '+10000000'],
    ['^.{10,}$', 0, 'aaaaaaaaaa'],
    ['\\bcat\\b', 0, 'cat'],
  ])('%s (minLength %i)', (pattern, minLength, expected) => {
    const s = stringForPattern(pattern, (v) => Array.from(v).length >= minLength);
    if (expected !== undefined) expect(s).toBe(expected);
    // Whatever this reading writes, the pattern matches it (checked on RE2 before it is returned).
    if (s !== undefined) expect(new RegExp(pattern, 'u').test(s)).toBe(true);
  });
});

describe('arguments from natural phrases', () => {
  const one = (prop: Record<string, unknown>) => ({ type: 'object', properties: { v: prop }, required: ['v'] });
  it.each([
    ['What is the weather in Paris?', one({ type: 'string' }), 'Paris'],
    ['Weather for New York tomorrow', one({ type: 'string' }), 'New York'],
    ['Tell me about "Gödel, Escher, Bach"', one({ type: 'string' }), 'Gödel, Escher, Bach'],
    ['Create a file named report.txt', one({ type: 'string' }), 'report.txt'],
    [
      'weather in the city of Lyon',
      { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      'Lyon',
    ],
    ['Send it to user Alice today', one({ type: 'string', description: 'the user who receives it' }), 'Alice'],
    ['Book a table for 4 people at 8', one({ type: 'integer', description: 'how many people' }), 4],
    ['Paris weather please', one({ type: 'string' }), 'v'],
  ])('%s', (text, schema, expected) => {
    expect(
      (valueFromSchema(schema, text) as { v?: unknown; city?: unknown }).v ??
        (valueFromSchema(schema, text) as { city: unknown }).city,
    ).toEqual(expected);
  });

  it('several properties take the phrases in order, or by their descriptions', () => {
    const trip = {
      type: 'object',
      properties: { from: { type: 'string' }, to: { type: 'string' } },
      required: ['from', 'to'],
    };
    expect(valueFromSchema(trip, 'Trains from Porto to Faro')).toEqual({ from: 'Porto', to: 'Faro' });
    const flight = {
      type: 'object',
      properties: {
        origin: { type: 'string', description: 'departure city' },
        destination: { type: 'string', description: 'arrival city' },
      },
      required: ['origin', 'destination'],
    };
    expect(valueFromSchema(flight, 'Arrival Rome, departure Madrid')).toEqual({
      origin: 'Madrid',
      destination: 'Rome',
    });
  });
});
