/** What a job's input holds, measured without copying it: characters and bytes, values, nesting. */
export interface InputSize {
  /** Characters of its strings plus bytes of its buffers. */
  size: number;
  /** Strings, numbers, buffers, array items and object members counted. */
  values: number;
  depth: number;
  /** False when the walk stopped at its budget of values: the input holds more than counted. */
  complete: boolean;
}

/**
 * Walks an input up to `maxValues` values (it runs on the event loop, so it is bounded); buffers
 * count their length, never their bytes one by one.
 */
export function measureInput(input: unknown, maxValues = 10_000): InputSize {
  const out: InputSize = { size: 0, values: 0, depth: 0, complete: true };
  const stack: Array<[unknown, number]> = [[input, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++out.values > maxValues) {
      out.complete = false;
      out.values = maxValues;
      break;
    }
    if (depth > out.depth) out.depth = depth;
    if (typeof value === 'string') out.size += value.length;
    else if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) out.size += value.byteLength;
    else if (Array.isArray(value)) for (const v of value) stack.push([v, depth + 1]);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) stack.push([v, depth + 1]);
  }
  return out;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The input in words, for an error that says what was too big. */
export function describeInput(name: string, input: unknown): string {
  const o = (input ?? {}) as Record<string, unknown>;
  if ((name === 'extract-document' || name === 'read-template-theme') && ArrayBuffer.isView(o.data))
    return `a ${typeof o.kind === 'string' ? `${o.kind} ` : ''}file of ${count(o.data.byteLength)} bytes`;
  if (name === 'count-tokens' && Array.isArray(o.texts)) {
    const chars = (o.texts as unknown[]).reduce<number>((n, t) => n + (typeof t === 'string' ? t.length : 0), 0);
    return `${count(o.texts.length)} text${o.texts.length === 1 ? '' : 's'} of ${count(chars)} characters in all`;
  }
  const m = measureInput(input, 1_000_000);
  return `${count(m.size)} characters and bytes in ${m.complete ? '' : 'more than '}${count(m.values)} values, nested ${count(m.depth)} deep`;
}
