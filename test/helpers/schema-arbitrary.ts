import fc from 'fast-check';

/**
 * JSON Schemas as a hostile caller would write them (issue 38): cycles through `#` and `$defs`,
 * definitions that alias each other (a → b → a), allOf/anyOf/oneOf nesting, bounds of a billion.
 */
type Schema = Record<string, unknown>;
const REFS = ['#', '#/$defs/a', '#/$defs/b', '#/$defs/c'];
const huge = <T>(...small: T[]) => fc.constantFrom<T | number>(...small, 300_000_000, 1e9, 1e300);

const { node } = fc.letrec<{ node: Schema; leaf: Schema }>((tie) => ({
  leaf: fc.oneof(
    fc.record(
      { type: fc.constant('string'), minLength: huge(0, 3, 50), maxLength: fc.constantFrom(2, 10, 1000) },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constantFrom('integer', 'number'),
        minimum: huge(-5, 0, 7),
        maximum: fc.constantFrom(-1, 3, 1e308),
        multipleOf: fc.constantFrom(0.5, 3, 1e-9),
      },
      { requiredKeys: ['type'] },
    ),
    fc.constantFrom<Schema>({ type: 'boolean' }, { type: 'null' }, { enum: ['x', 2, null] }, { const: 'c' }, {}),
    fc.constantFrom(...REFS).map((ref) => ({ $ref: ref })),
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.dictionary(fc.constantFrom('p', 'q', 'r', 'next', 'kids'), tie('node'), { maxKeys: 3 }).chain((properties) =>
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.constant(properties),
          required: fc.subarray(Object.keys(properties)),
          minProperties: huge(0, 2),
          additionalProperties: fc.boolean(),
        },
        { requiredKeys: ['type', 'properties', 'required'] },
      ),
    ),
    fc.record(
      { type: fc.constant('array'), items: tie('node'), minItems: huge(0, 1, 3), maxItems: fc.constantFrom(0, 2, 100) },
      { requiredKeys: ['type', 'items'] },
    ),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })),
  ),
}));

/** A root with definitions that may be aliases of each other (a → b → a) or refer back to the root. */
export const schemas = fc
  .record({
    root: node,
    a: fc.oneof(
      node,
      fc.constantFrom(...REFS).map((ref) => ({ $ref: ref })),
    ),
    b: fc.oneof(node, fc.constant({ $ref: '#/$defs/a' })),
    c: node,
  })
  .map(({ root, a, b, c }) => ({ ...root, $defs: { a, b, c } }));
