import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Ajv (draft 2020-12) with the formats: the judge of every facet-agent answer in the tests. */
export function schemaJudge() {
  const ajv = addFormats(new Ajv2020({ strict: false }));
  return (schema: Record<string, unknown>, value: unknown): string | null => {
    const validate = ajv.compile(schema);
    return validate(value) ? null : `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`;
  };
}

type Schema = Record<string, unknown>;
const obj = (properties: Record<string, unknown>, required = Object.keys(properties), extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});

/**
 * Schemas as agent frameworks and structured-output callers send them (issue 27, item 4): nested,
 * recursive, patterns, formats, bounds, unions, enums and const. Every one must get an answer Ajv
 * accepts, on every surface, plain and streamed.
 */
export const SCHEMA_TABLE: Array<[string, Schema]> = [
  [
    'nested order',
    obj(
      {
        customer: obj({ name: { type: 'string', minLength: 2 }, email: { type: 'string', format: 'email' } }),
        items: {
          type: 'array',
          minItems: 1,
          items: obj({
            sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
            qty: { type: 'integer', minimum: 1, maximum: 99 },
          }),
        },
        note: { type: 'string' },
      },
      ['customer', 'items'],
    ),
  ],
  [
    'recursive tree ($defs)',
    {
      $defs: { Node: obj({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }) },
      $ref: '#/$defs/Node',
    },
  ],
  [
    'recursive list (anyOf null)',
    {
      ...obj({ head: { $ref: '#/$defs/Cell' } }),
      $defs: {
        Cell: obj({ value: { type: 'integer' }, next: { anyOf: [{ $ref: '#/$defs/Cell' }, { type: 'null' }] } }),
      },
    },
  ],
  [
    'recursive through # with optional fields',
    obj(
      {
        label: { type: 'string', maxLength: 10 },
        parent: { $ref: '#' },
        kids: { type: 'array', items: { $ref: '#' }, maxItems: 2 },
      },
      ['label', 'kids'],
    ),
  ],
  [
    'patterns',
    obj({
      zip: { type: 'string', pattern: '^\\d{5}(-\\d{4})?$' },
      color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
      slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', minLength: 12 },
      phone: { type: 'string', pattern: '^\\+[1-9]\\d{7,14}$' },
      country: { type: 'string', pattern: '^[A-Z]{2}$' },
      either: { type: 'string', pattern: '^(foo|bar)baz$' },
      anywhere: { type: 'string', pattern: 'ab+c' },
      word: { type: 'string', pattern: '^\\w+\\s\\w+$', maxLength: 20 },
    }),
  ],
  [
    'formats',
    obj({
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      mail: { type: 'string', format: 'email' },
      link: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
    }),
  ],
  [
    'bounds',
    obj({
      step: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 3 },
      below: { type: 'number', minimum: -5.5, maximum: -1.25 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      count: { type: 'integer', minimum: 7 },
      code: { type: 'string', minLength: 5, maxLength: 8 },
      short: { type: 'string', maxLength: 2 },
      list: { type: 'array', items: { type: 'integer', maximum: -3 }, minItems: 2, maxItems: 4 },
    }),
  ],
  [
    'unions',
    obj({
      contact: {
        oneOf: [
          { type: 'string', format: 'email' },
          { type: 'string', maxLength: 3 },
        ],
      },
      shape: {
        oneOf: [
          obj({ kind: { const: 'circle' }, radius: { type: 'number', minimum: 1 } }),
          obj({ kind: { const: 'square' }, side: { type: 'number' } }),
        ],
      },
      size: { anyOf: [{ type: 'integer', minimum: 10 }, { type: 'string' }] },
      maybe: { type: ['string', 'null'] },
    }),
  ],
  [
    'enums and const',
    obj({
      unit: { enum: ['celsius', 'fahrenheit'] },
      level: { type: 'integer', enum: [3, 5, 8] },
      version: { const: 2 },
      tag: { const: 'v1' },
      flags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, uniqueItems: true, minItems: 2 },
    }),
  ],
  [
    'allOf',
    {
      allOf: [
        obj({ a: { type: 'string' } }, ['a'], { additionalProperties: true }),
        { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] },
      ],
    },
  ],
];

/** Schemas no value satisfies (or that facet-agent cannot write one for): refused with a 400. */
export const UNSATISFIABLE: Array<[string, Schema]> = [
  ['pattern that matches nothing', obj({ code: { type: 'string', pattern: '^a$b' } })],
  ['empty class', obj({ code: { type: 'string', pattern: '^[^\\s\\S]$' } })],
  ['pattern longer than maxLength', obj({ zip: { type: 'string', pattern: '^\\d{5}$', maxLength: 3 } })],
  ['crossed bounds', obj({ n: { type: 'integer', minimum: 5, maximum: 3 } })],
  ['recursion that needs an item at every level', obj({ kids: { type: 'array', items: { $ref: '#' }, minItems: 1 } })],
  ['recursion with no end', { $defs: { N: obj({ next: { $ref: '#/$defs/N' } }) }, $ref: '#/$defs/N' }],
];
