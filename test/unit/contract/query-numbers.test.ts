import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '../../../src/contract/index.js';
import { TaskCreateFields } from '../../../src/contract/image-tasks.js';

/**
 * Every number that arrives as text goes through textInt: decimal digits only. This walks the whole
 * route table, so a numeric query parameter added later with z.coerce.number() fails here.
 */
const REFUSED = ['0x10', '+5', ' 5 ', '5 ', '1e1', '', '5.0', '0b1', 'Infinity'];

function numericProps(schema: z.ZodObject): Array<{ name: string; min: number }> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string; minimum?: number }> };
  return Object.entries(json.properties ?? {})
    .filter(([, p]) => p.type === 'integer' || p.type === 'number')
    .map(([name, p]) => ({ name, min: Math.max(0, p.minimum ?? 0) }));
}

describe('numbers in queries and forms', () => {
  const cases = ROUTES.filter((r) => r.query).flatMap((r) => numericProps(r.query!).map((p) => ({ route: r.id, schema: r.query!, ...p })));

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
    expect(TaskCreateFields.safeParse({ kind: 'illustration', prompt: 'p', count: '2' })).toMatchObject({ success: true, data: { count: 2 } });
  });
});
