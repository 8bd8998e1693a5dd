import { describe, expect, it } from 'vitest';
import { extractJsonFields, selectFields } from '../../src/cli/io/json-shape.js';

describe('extractJsonFields', () => {
  it('takes --json=LIST and --json a,b; leaves a lone word as an argument, marked as a possible field', () => {
    expect(extractJsonFields(['keys', 'list', '--json', 'id,name'])).toEqual({
      args: ['keys', 'list', '--json'],
      fields: ['id', 'name'],
      candidate: undefined,
    });
    expect(extractJsonFields(['whoami', '--json=via'])).toEqual({
      args: ['whoami', '--json'],
      fields: ['via'],
      candidate: undefined,
    });
    // A lone word may be a field (`--json id`) or the command's own argument: the command tree decides later.
    expect(extractJsonFields(['--json', 'keys', 'list'])).toEqual({
      args: ['--json', 'keys', 'list'],
      fields: undefined,
      candidate: 1,
    });
    expect(extractJsonFields(['keys', 'get', '--json', 'key_abc'])).toEqual({
      args: ['keys', 'get', '--json', 'key_abc'],
      fields: undefined,
      candidate: 3,
    });
    expect(extractJsonFields(['api', '--', '--json', 'a,b']).fields).toBeUndefined();
  });

  it('refuses a malformed list', () => {
    expect(() => extractJsonFields(['--json=a,,b'])).toThrow(/comma-separated list/);
  });
});

describe('selectFields', () => {
  it('picks from a record or from each record of a list', () => {
    expect(selectFields({ a: 1, b: 2 }, ['b'])).toEqual({ b: 2 });
    expect(selectFields([{ a: 1, b: 2 }, { a: 3 }], ['a', 'b'])).toEqual([{ a: 1, b: 2 }, { a: 3 }]);
    expect(() => selectFields([{ a: 1 }], ['z'])).toThrow(/unknown JSON field: z/);
  });
});
