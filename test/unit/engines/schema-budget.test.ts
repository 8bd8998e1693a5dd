import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_VALUE_CHARS,
  maxValueChars,
  SchemaBudget,
  UnsatisfiableSchema,
} from '../../../src/server/engines/gateway/schema-budget.js';
import { valueFromSchema } from '../../../src/server/engines/gateway/schema-values.js';
import { writeSchemaAnswers } from '../../../src/server/engines/gateway/schema-answers.js';
import { schemaJudge } from '../../helpers/schema-table.js';
import { schemas } from '../../helpers/schema-arbitrary.js';

/** Issue 38: every schema walk under one budget; cycles found, optional ones left out, bounds capped. */
const judge = schemaJudge();
type Schema = Record<string, unknown>;

function refusal(schema: Schema, text = '', budget?: SchemaBudget): UnsatisfiableSchema {
  try {
    valueFromSchema(schema, text, budget);
  } catch (err) {
    expect(err).toBeInstanceOf(UnsatisfiableSchema);
    return err as UnsatisfiableSchema;
  }
  throw new Error(`no refusal for ${JSON.stringify(schema)}`);
}

describe('a $ref cycle every value must enter is refused, naming where it is', () => {
  it('{"$ref":"#"}: the schema is its own alias', () => {
    const e = refusal({ $ref: '#' });
    expect(e.path).toBe('#');
    expect(e.message).toMatch(/^at #: the \$ref "#" closes a cycle/);
  });

  it('an alias cycle a → b → a', () => {
    const e = refusal({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' });
    expect(e.message).toMatch(/the \$ref "#\/\$defs\/a" closes a cycle/);
    expect(e.path).toBe('#/$defs/b');
  });

  it('a required property that holds the type again', () => {
    const N = { type: 'object', properties: { next: { $ref: '#/$defs/N' } }, required: ['next'] };
    const e = refusal({ $defs: { N }, $ref: '#/$defs/N' });
    expect(e.path).toBe('#/$defs/N/properties/next');
  });

  it('allOf that includes the schema itself', () => {
    const e = refusal({ type: 'object', allOf: [{ $ref: '#' }] });
    expect(e.path).toBe('#/allOf/0');
    expect(e.message).toMatch(/closes a cycle/);
  });

  it('a oneOf/anyOf whose every branch enters the cycle', () => {
    const e = refusal({
      $defs: { N: { anyOf: [{ $ref: '#/$defs/N' }, { allOf: [{ $ref: '#/$defs/N' }] }] } },
      $ref: '#/$defs/N',
    });
    expect(e.message).toMatch(/cycle/);
  });
});

describe('an optional cycle is not entered', () => {
  const loops = { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } };
  it('an optional property, even one the text gives', () => {
    const schema = {
      $defs: loops,
      type: 'object',
      properties: { name: { type: 'string' }, loop: { $ref: '#/$defs/a' } },
      required: ['name'],
    };
    expect(valueFromSchema(schema, 'name: Ada loop: yes')).toEqual({ name: 'Ada' });
  });

  it('an array with minItems 0', () => {
    const schema = { $defs: loops, type: 'array', items: { $ref: '#/$defs/a' } };
    expect(valueFromSchema(schema, '')).toEqual([]);
  });

  it('an anyOf branch with an alternative', () => {
    const schema = { $defs: loops, anyOf: [{ $ref: '#/$defs/a' }, { type: 'integer', minimum: 4 }] };
    expect(valueFromSchema(schema, '')).toBe(4);
  });
});

describe('lengths and counts past what the answer can hold are refused, naming the keyword', () => {
  it.each([
    ['minLength', { type: 'string', minLength: 300_000_000 }],
    ['minLength', { type: 'string', minLength: 1e9 }],
    ['minLength', { type: 'object', properties: { s: { type: 'string', minLength: 1e300 } }, required: ['s'] }],
    ['minItems', { type: 'array', minItems: 1e9 }],
    ['minProperties', { type: 'object', minProperties: 1e9 }],
  ])('%s: %j', (keyword, schema) => {
    const e = refusal(schema);
    expect(e.message).toContain(`${keyword} asks for a value longer than the answer can hold`);
    expect(e.message).toContain(String(DEFAULT_MAX_VALUE_CHARS));
  });

  it('the cap follows max tokens: a value longer than max_tokens × 128 bytes is refused', () => {
    expect(maxValueChars(10)).toBe(1280);
    const schema = { type: 'string', minLength: 2000 };
    expect(refusal(schema, '', new SchemaBudget(maxValueChars(10))).message).toMatch(/minLength .*at most 1280/);
    expect(valueFromSchema(schema, '', new SchemaBudget(maxValueChars(100)))).toHaveLength(2000);
  });

  it('many properties together count against one budget', () => {
    const props = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`p${i}`, { type: 'string', minLength: 100_000 }]),
    );
    const e = refusal({ type: 'object', properties: props, required: Object.keys(props) });
    expect(e.message).toMatch(/minLength asks for a value longer/);
    expect(e.path).toMatch(/^#\/properties\/p[1-7]$/);
  });
});

describe('the budget', () => {
  it('counts the steps of every schema of a request together', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', minItems: 40, items: { type: 'integer' } } },
      required: ['a'],
    };
    const budget = new SchemaBudget(DEFAULT_MAX_VALUE_CHARS, 300);
    valueFromSchema(schema, '', budget);
    valueFromSchema(schema, '', budget);
    expect(refusal(schema, '', budget).message).toMatch(/more than 300 steps/);
  });

  it('a minProperties within the budget is honoured', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, minProperties: 4 };
    const value = valueFromSchema(schema, '');
    expect(Object.keys(value as object)).toHaveLength(4);
    expect(judge(schema, value)).toBeNull();
    expect(refusal({ ...schema, additionalProperties: false }).message).toMatch(/not valid against it/);
  });

  it('answers for a request: a refusal names the field and the code', () => {
    const answers = writeSchemaAnswers({
      tasks: [
        { schema: { type: 'object', properties: { q: { type: 'string' } } }, text: 'q: x', param: 'response_format' },
        { schema: { $ref: '#' }, text: '', param: 'tools[0].function.parameters' },
      ],
      maxTokens: 100,
    });
    expect(answers).toEqual({
      refusal: {
        code: 'schema_unsatisfiable',
        status: 400,
        param: 'tools[0].function.parameters',
        message: expect.stringMatching(
          /^tools\[0\]\.function\.parameters: facet-agent cannot answer this schema: at #: /,
        ),
      },
    });
    expect(
      writeSchemaAnswers({
        tasks: [{ schema: { type: 'object', properties: { q: { type: 'string' } } }, text: 'q: x', param: 'p' }],
      }),
    ).toEqual({ values: [{ q: 'x' }] });
  });
});

describe('any schema', () => {
  it('ends in a value or an UnsatisfiableSchema, within the budget, never another error', () => {
    fc.assert(
      fc.property(schemas, fc.constantFrom('', 'p: 3 q=yes "Ada" in Paris', 'next: x kids: 2'), (schema, text) => {
        const budget = new SchemaBudget(maxValueChars(4096));
        try {
          valueFromSchema(schema, text, budget);
        } catch (err) {
          if (!(err instanceof UnsatisfiableSchema)) throw err;
        }
      }),
      { numRuns: 400 },
    );
  });
});
