import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { valueFromSchema } from '../../../src/server/engines/gateway/schema-values.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false }));

/** A table of schemas of the kinds agent frameworks send: nested objects, arrays, enums, required fields, refs. */
const SCHEMAS: Array<[string, Record<string, unknown>]> = [
  [
    'flat with required',
    {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 14 } },
      required: ['city', 'days'],
    },
  ],
  [
    'enum',
    {
      type: 'object',
      properties: { unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['unit'],
      additionalProperties: false,
    },
  ],
  [
    'nested objects',
    {
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 3 }, email: { type: 'string', format: 'email' } },
          required: ['name', 'email'],
        },
      },
      required: ['user'],
    },
  ],
  [
    'arrays',
    {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 },
        scores: { type: 'array', items: { type: 'number', exclusiveMinimum: 0 } },
      },
      required: ['tags', 'scores'],
    },
  ],
  [
    'nullable and anyOf',
    {
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        id: { anyOf: [{ type: 'null' }, { type: 'integer', multipleOf: 5, minimum: 7 }] },
      },
      required: ['note', 'id'],
    },
  ],
  [
    '$defs and $ref',
    {
      type: 'object',
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
      },
      properties: { a: { $ref: '#/$defs/Point' }, b: { $ref: '#/$defs/Point' } },
      required: ['a', 'b'],
    },
  ],
  [
    'formats and bounds',
    {
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        code: { type: 'string', maxLength: 2 },
        ok: { type: 'boolean' },
      },
      required: ['when', 'code', 'ok'],
    },
  ],
  [
    'const and default',
    {
      type: 'object',
      properties: { kind: { const: 'report' }, level: { type: 'integer', default: 3 } },
      required: ['kind', 'level'],
    },
  ],
  [
    'enum array unique',
    {
      type: 'object',
      properties: {
        colors: { type: 'array', items: { enum: ['red', 'green', 'blue'] }, uniqueItems: true, minItems: 2 },
      },
      required: ['colors'],
    },
  ],
];

describe('values built from a JSON Schema (the local agent model)', () => {
  it.each(SCHEMAS)('%s: valid against the schema, whatever the text', (_name, schema) => {
    for (const text of [
      '',
      'weather in "Paris" for 3 days',
      'city: Lyon days=20 unit=fahrenheit colors: blue',
      'numbers 1 2 3 "a" "b" "c"',
    ]) {
      const value = valueFromSchema(schema, text);
      const validate = ajv.compile(schema);
      expect(
        validate(value),
        `${JSON.stringify(value)} for ${JSON.stringify(text)}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
    }
  });

  it('takes values from the text: name: value, then quoted texts and numbers in order, then the enum member named', () => {
    const schema = SCHEMAS[0][1];
    expect(valueFromSchema(schema, 'get_weather city: Paris, days=3')).toEqual({ city: 'Paris', days: 3 });
    expect(valueFromSchema(schema, 'the weather in "Oslo" for 5 days')).toEqual({ city: 'Oslo', days: 5 });
    // Bounds hold whatever the text says.
    expect(valueFromSchema(schema, 'city="New York" days=99')).toEqual({ city: 'New York', days: 14 });
    expect(valueFromSchema(SCHEMAS[1][1], 'in fahrenheit please')).toEqual({ unit: 'fahrenheit' });
    // An optional property appears only when the text gives it.
    expect(
      valueFromSchema(
        { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] },
        'q: cats limit: 4',
      ),
    ).toEqual({ q: 'cats', limit: 4 });
    expect(
      valueFromSchema(
        { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] },
        'q: cats',
      ),
    ).toEqual({ q: 'cats' });
  });

  it('is a pure function of its inputs', () => {
    for (const [, schema] of SCHEMAS)
      expect(valueFromSchema(schema, 'city: Rome 4 "x"')).toEqual(valueFromSchema(schema, 'city: Rome 4 "x"'));
  });
});
