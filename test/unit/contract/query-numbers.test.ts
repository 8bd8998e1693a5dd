import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '../../../src/contract/index.js';
import { TaskCreateFields } from '../../../src/contract/image-tasks.js';
import { textInt } from '../../../src/contract/fields.js';

/**
 * Every number that arrives as text goes through textInt: decimal digits only. This walks the whole
 * route table, so a numeric query parameter added later with z.coerce.number() fails here.
 */
const REFUSED = ['0x10', '+5', ' 5 ', '5 ', '1e1', '', '5.0', '0b1', 'Infinity'];

function numericProps(schema: z.ZodObject): Array<{ name: string; min: number }> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string; minimum?: number }>;
  };
  return Object.entries(json.properties ?? {})
    .filter(([, p]) => p.type === 'integer' || p.type === 'number')
    .map(([name, p]) => ({ name, min: Math.max(0, p.minimum ?? 0) }));
}

describe('numbers in queries and forms', () => {
  const cases = ROUTES.filter((r) => r.query).flatMap((r) =>
    numericProps(r.query!).map((p) => ({ route: r.id, schema: r.query!, ...p })),
  );

  it('the route table has numeric query parameters to check', () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  it.each(cases)('$route ?$name= takes decimal digits only', ({ schema, name, min }) => {
    for (const bad of REFUSED) {
      const r = schema.safeParse({ [name]: bad });
      expect(r.success, `${name}=${JSON.stringify(bad)}`).toBe(false);
      expect(r.error!.issues.some((i) => i.path[0] === name)).toBe(true);
    }
    // Other required parameters may be missing here; this one must parse.
    const ok = schema.safeParse({ [name]: String(min) });
    expect(ok.success ? [] : ok.error.issues.filter((i) => i.path[0] === name)).toEqual([]);
    if (ok.success) expect((ok.data as Record<string, unknown>)[name]).toBe(min);
  });

  it('the task form count too', () => {
    expect(TaskCreateFields.safeParse({ kind: 'illustration', prompt: 'p', count: '0x2' }).success).toBe(false);
    expect(TaskCreateFields.safeParse({ kind: 'illustration', prompt: 'p', count: '2' })).toMatchObject({
      success: true,
      data: { count: 2 },
    });
  });
});

/** Integers written as text (query parameters, form fields) up to the document's bound, 2^53 - 1. */
describe('textInt', () => {
  const n = textInt({ min: 0 });
  const messages = (v: unknown) => {
    const r = n.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it('takes every safe integer, 16 digits included', () => {
    expect(n.parse('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(n.parse('1234567890123456')).toBe(1234567890123456);
    expect(n.parse('000042')).toBe(42);
  });

  it('refuses what is past 2^53 - 1, saying so', () => {
    expect(messages('9007199254740992').join()).toMatch(/9007199254740991/);
    expect(messages('99999999999999999999').join()).toMatch(/9007199254740991/);
    expect(messages('9'.repeat(400))).not.toEqual([]);
  });

  it('still refuses anything but decimal digits', () => {
    for (const v of ['0x10', '+5', ' 5', '1e3', '', '5.0', '-1']) expect(messages(v), v).not.toEqual([]);
  });
});
