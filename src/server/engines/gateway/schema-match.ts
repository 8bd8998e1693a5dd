import { patternMatches } from './caller-patterns.js';

/**
 * Whether a value is valid against a JSON Schema, for the keywords the local agent model writes
 * values for (schema-values.ts): it picks a `oneOf` branch no other branch also takes, and keeps a
 * candidate string only when it passes. A keyword not listed here never refuses a value.
 */
/** A schema object as the caller sent it: its keywords are checked where they are read. */
export type Schema = Record<string, unknown>;
type Resolve = (s: Schema) => Schema;

const FORMAT_CHECKS: Record<string, RegExp> = {
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  'date-time':
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/,
  time: /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/,
  email:
    /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  url: /^https?:\/\/[^\s/$.?#][^\s]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  hostname: /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
  ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
};

export function formatOk(format: unknown, s: string): boolean {
  const re = typeof format === 'string' ? FORMAT_CHECKS[format] : undefined;
  return !re || (s.length <= 256 && re.test(s));
}

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      return true;
  }
}

/** The string's length in code points, as JSON Schema counts it. */
export const lengthOf = (s: string) => Array.from(s).length;

export function matches(schema: unknown, v: unknown, resolve: Resolve, depth = 0): boolean {
  if (schema === true || schema === undefined) return true;
  if (schema === false || typeof schema !== 'object' || schema === null || depth > 32)
    return schema !== false && depth <= 32;
  const s = resolve(schema as Schema);
  const sub = (x: unknown, val: unknown) => matches(x, val, resolve, depth + 1);
  if (s.type !== undefined && !(Array.isArray(s.type) ? s.type : [s.type]).some((t: string) => typeOk(t, v)))
    return false;
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(v))) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((x: unknown) => sub(x, v))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((x: unknown) => sub(x, v))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((x: unknown) => sub(x, v)).length !== 1) return false;
  if (s.not !== undefined && sub(s.not, v)) return false;
  if (typeof v === 'string') {
    const n = lengthOf(v);
    if ((typeof s.minLength === 'number' && n < s.minLength) || (typeof s.maxLength === 'number' && n > s.maxLength))
      return false;
    if (typeof s.pattern === 'string' && !patternMatches(s.pattern, v)) return false;
    if (!formatOk(s.format, v)) return false;
  }
  if (typeof v === 'number') {
    if ((typeof s.minimum === 'number' && v < s.minimum) || (typeof s.maximum === 'number' && v > s.maximum))
      return false;
    if (
      (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) ||
      (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum)
    )
      return false;
    if (
      typeof s.multipleOf === 'number' &&
      s.multipleOf > 0 &&
      Math.abs(v / s.multipleOf - Math.round(v / s.multipleOf)) > 1e-9
    )
      return false;
  }
  if (Array.isArray(v)) {
    if (
      (typeof s.minItems === 'number' && v.length < s.minItems) ||
      (typeof s.maxItems === 'number' && v.length > s.maxItems)
    )
      return false;
    const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    if (!v.every((item, i) => sub(i < prefix.length ? prefix[i] : s.items, item))) return false;
    if (s.uniqueItems && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) return false;
  }
  if (typeOk('object', v)) {
    const o = v as Record<string, unknown>;
    const props = (s.properties ?? {}) as Schema;
    if (Array.isArray(s.required) && !s.required.every((k: string) => k in o)) return false;
    const n = Object.keys(o).length;
    if (
      (typeof s.minProperties === 'number' && n < s.minProperties) ||
      (typeof s.maxProperties === 'number' && n > s.maxProperties)
    )
      return false;
    for (const [k, val] of Object.entries(o)) {
      if (k in props) {
        if (!sub(props[k], val)) return false;
      } else if (s.additionalProperties !== undefined && !sub(s.additionalProperties, val)) return false;
    }
  }
  return true;
}
