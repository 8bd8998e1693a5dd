import type { z } from 'zod';
import { unknownNamesMessage } from '../../contract/fields.js';
import { RequestValidationError, type ValidationIssue } from '../errors.js';

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cur = data;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * Validates one part of a request (path, query, body) against its contract schema. Issues are
 * reported FastAPI-style ({loc, msg, type}) with loc starting at the part, which every error family
 * can render; an absent required value gets type "missing".
 */
export function validatePart<T extends z.ZodType>(
  where: 'path' | 'query' | 'body' | 'header',
  schema: T,
  data: unknown,
): z.infer<T> {
  if (where === 'query' && isEmpty(data)) return emptyQueryOf(schema);
  return validateFully(where, schema, data);
}

function validateFully<T extends z.ZodType>(
  where: 'path' | 'query' | 'body' | 'header',
  schema: T,
  data: unknown,
): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  let missing = false;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => {
    const isMissing =
      // An absent enum or literal reports invalid_value, not invalid_type: it is missing all the same.
      (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
      valueAt(data, issue.path) === undefined &&
      (where !== 'body' || data !== undefined || issue.path.length === 0);
    if (isMissing) missing = true;
    // A query parameter the endpoint does not take (a strict query, register.ts): named, with those it takes.
    if (issue.code === 'unrecognized_keys' && where === 'query' && issue.path.length === 0) {
      const known = Object.keys((schema as unknown as z.ZodObject).shape);
      return {
        loc: [where, issue.keys[0]],
        msg: unknownNamesMessage(issue.keys, known, 'query parameter', 'this endpoint'),
        type: issue.code,
      };
    }
    return {
      loc: [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: isMissing ? 'Field required' : issue.message,
      type: isMissing ? 'missing' : issue.code,
    };
  });
  throw new RequestValidationError(issues, missing);
}

const isEmpty = (data: unknown) => typeof data === 'object' && data !== null && Object.keys(data).length === 0;

// Most list requests send no query at all, and an empty query always validates to the same
// defaults: parsed once per schema, and handed out as a fresh copy when it holds only plain values.
const emptyQueries = new WeakMap<z.ZodType, { value: unknown } | null>();

function emptyQueryOf<T extends z.ZodType>(schema: T): z.infer<T> {
  let known = emptyQueries.get(schema);
  if (known === undefined) {
    const result = schema.safeParse({});
    const plain =
      result.success &&
      typeof result.data === 'object' &&
      result.data !== null &&
      Object.values(result.data).every((v) => v === null || typeof v !== 'object');
    emptyQueries.set(schema, (known = plain ? { value: result.data } : null));
  }
  if (known === null) return validateFully('query', schema, {});
  return { ...(known.value as object) } as z.infer<T>;
}
