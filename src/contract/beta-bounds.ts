import { z } from 'zod';

/**
 * Bounds on the beta task bodies (docs/decisions.md "Bounded queries and filters"). A task body is
 * echoed in the envelope, cloned to a CPU worker and compiled; each of those recurses over nested
 * arrays and copies every value, so a body nested or sized past any real request is refused before
 * anything else walks it.
 */

/** Deepest JSON nesting of a task body: the array of tasks (1), a task (2), filters (3), 8 groups, a condition and its list. */
export const MAX_BODY_DEPTH = 16;
/** Most JSON values (objects, arrays and scalars) in one task body: 2000 keywords, or several full `in` lists. */
export const MAX_BODY_VALUES = 20_000;

/**
 * Why a parsed JSON value is out of bounds (null when it is within them): walked with an explicit
 * stack (no recursion), and given up at the first value past either bound, so linear in what it
 * visits whatever the shape.
 */
export function jsonOutOfBounds(value: unknown, maxDepth = MAX_BODY_DEPTH, maxValues = MAX_BODY_VALUES): string | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let values = 1;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return `the body is nested deeper than ${maxDepth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v);
    values += children.length;
    if (values > maxValues) return `the body holds more than ${maxValues} JSON values`;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return null;
}

/** A task body: any JSON (the service judges each task) within MAX_BODY_DEPTH and MAX_BODY_VALUES. */
export function taskBody(description: string) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = jsonOutOfBounds(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(`${description}; nested at most ${MAX_BODY_DEPTH} levels deep, at most ${MAX_BODY_VALUES} JSON values`);
}
