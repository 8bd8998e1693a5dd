import { HttpError } from '../../errors.js';
import { stringForPattern } from './pattern-values.js';
import { lengthOf, matches, type Schema } from './schema-match.js';
import { TextSource, wordsOf } from './text-values.js';

/**
 * A value valid against a JSON Schema, built from a text: how the local agent model fills a tool's
 * arguments and a structured answer, as a pure function of the request (docs/local-models.md):
 *
 * - an object has its required properties, plus any optional one the text gives as `name: value`;
 * - a string, number or boolean takes the value the text offers it (text-values.ts) when that value
 *   is valid, else the schema's `default` or first valid `examples` entry, else a fixed valid value
 *   of its `format`, else one written from its `pattern` (pattern-values.ts), else the property's
 *   name (padded or cut to its lengths); a number is then brought within its bounds;
 * - `const` is itself; an enum takes the member the text names or mentions, else its first;
 * - an array has one item (or minItems items, at most maxItems);
 * - `$ref` (`#`, `#/$defs/…`, `#/definitions/…`) is followed; inside a recursion (a `$ref` met
 *   again) the value is the smallest one: required properties only, minItems items, the union
 *   branch that ends it — so a tree ends in empty arrays, never a `null` string;
 * - `anyOf` takes its first branch whose value is valid, `oneOf` the first whose value no other
 *   branch also takes; `allOf` is merged; type lists take their first type that is not null.
 * The answer is checked against the whole schema (schema-match.ts); one that fails is refused
 * with a 400 rather than sent, and so is a schema no value can be written for.
 */
interface Ctx {
  depth: number;
  refs: string[];
  minimal: boolean;
  words: string[];
}

const FORMATS: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  duration: 'PT1H',
};
/** How deep a value nests before only the smallest values are written, and past which none is. */
const MINIMAL_DEPTH = 12;
const MAX_DEPTH = 32;
/** Schema visits (writing and checking) per answer: unions over recursions could otherwise take exponential time. */
export const MAX_SCHEMA_STEPS = 20_000;

export class UnsatisfiableSchema extends Error {}

function typeOf(s: Schema, minimal: boolean): string | undefined {
  if (Array.isArray(s.type)) {
    const types: unknown[] = s.type;
    const t = minimal && types.includes('null') && !types.includes('string') ? 'null' : types.find((x) => x !== 'null');
    return t === undefined || t === null ? 'null' : nameOf(t);
  }
  if (s.type) return nameOf(s.type);
  if (s.properties || s.required) return 'object';
  if (s.items || s.prefixItems) return 'array';
  return undefined;
}

/** A type name as written; one that is not a string names no type (it is written as a string). */
const nameOf = (t: unknown): string => (typeof t === 'string' ? t : 'string');

class Builder {
  private steps = 0;
  /** $refs whose smallest value could not be written: tried again, they fail at once (no exponential retries). */
  private readonly endless = new Map<string, UnsatisfiableSchema>();
  constructor(
    private readonly root: Schema,
    private readonly src: TextSource,
  ) {}

  /** The schema a `$ref` points at, with the referring schema's own keywords on top. */
  private deref(s: Schema, ref: string): Schema {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = m ? (this.root[m[1]] as Schema | undefined) : undefined;
    const target: unknown = m
      ? defs?.[decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~')]
      : ref === '#'
        ? this.root
        : undefined;
    if (!target) throw new UnsatisfiableSchema(`the $ref ${ref} points at no definition of the schema`);
    const { $ref: _ref, ...rest } = s;
    return { ...(target as Schema), ...rest };
  }

  /** For the validator: $ref followed (schema-match.ts follows the rest itself). */
  readonly resolveRef = (s: Schema): Schema => {
    this.step();
    let out = s;
    for (let hops = 0; typeof out?.$ref === 'string' && hops < MAX_DEPTH; hops++) out = this.deref(out, out.$ref);
    return out;
  };

  private step(): void {
    if (++this.steps > MAX_SCHEMA_STEPS)
      throw new UnsatisfiableSchema(
        `writing a value takes more than ${MAX_SCHEMA_STEPS} steps (unions over recursions)`,
      );
  }

  private merged(s: Schema, ctx: Ctx): Schema {
    if (!Array.isArray(s.allOf)) return s;
    const { allOf, ...rest } = s;
    return (allOf as Schema[]).reduce<Schema>((acc, part) => {
      const r = this.merged(this.resolveRef(part), ctx);
      return {
        ...acc,
        ...r,
        properties: { ...(acc.properties as Schema | undefined), ...(r.properties as Schema | undefined) },
        required: [
          ...((acc.required as unknown[] | undefined) ?? []),
          ...((r.required as unknown[] | undefined) ?? []),
        ],
      };
    }, rest);
  }

  value(schema: unknown, name: string, ctx: Ctx): unknown {
    this.step();
    if (ctx.depth > MAX_DEPTH)
      throw new UnsatisfiableSchema('its values nest deeper than 32 levels (a recursion with no way to end)');
    let s = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
    if (typeof s.$ref === 'string' && (ctx.minimal || ctx.refs.includes(s.$ref))) {
      const ref = s.$ref;
      const failed = this.endless.get(ref);
      if (failed) throw failed;
      try {
        return this.value(this.deref(s, ref), name, { ...ctx, refs: [...ctx.refs, ref], minimal: true });
      } catch (err) {
        if (err instanceof UnsatisfiableSchema) this.endless.set(ref, err);
        throw err;
      }
    }
    while (typeof s.$ref === 'string') {
      ctx = { ...ctx, refs: [...ctx.refs, s.$ref] };
      s = this.deref(s, s.$ref);
    }
    s = this.merged(s, ctx);
    if (ctx.depth >= MINIMAL_DEPTH) ctx = { ...ctx, minimal: true };
    const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (Array.isArray(branches) && branches.length) return this.union(s, branches, name, ctx);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum) && s.enum.length) return this.member(s.enum, name);
    const type = typeOf(s, ctx.minimal);
    const inner = { ...ctx, depth: ctx.depth + 1 };
    switch (type) {
      case 'object':
        return this.object(s, inner);
      case 'array':
        return this.array(s, name, inner);
      case 'integer':
      case 'number':
        return this.number(s, type === 'integer', name, ctx);
      case 'boolean': {
        const given = name ? this.src.given(name) : undefined;
        if (given === 'true' || given === 'false') return given === 'true';
        return typeof s.default === 'boolean' ? s.default : false;
      }
      case 'null':
        return null;
      default:
        return this.string(s, name, ctx);
    }
  }

  /** anyOf: the first branch whose value is valid; oneOf: the first whose value no other branch takes. */
  private union(s: Schema, branches: Schema[], name: string, ctx: Ctx): unknown {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const order = branches.map((b, i) => ({ b, i }));
    // Inside a recursion the branch that ends it comes first: null, then one with no $ref.
    if (ctx.minimal) order.sort((x, y) => rank(x.b) - rank(y.b) || x.i - y.i);
    let firstError: unknown;
    for (const { b } of order) {
      try {
        const v = this.value({ ...rest, ...b }, name, ctx);
        if (matches(s, v, this.resolveRef)) return v;
      } catch (err) {
        if (!(err instanceof UnsatisfiableSchema)) throw err;
        firstError ??= err;
      }
    }
    // The first branch's own failure, as it was thrown.
    const failure =
      firstError ??
      new UnsatisfiableSchema(
        `no branch of its ${s.oneOf ? 'oneOf' : 'anyOf'} takes a value the local model can write`,
      );
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw failure;
  }

  private member(members: unknown[], name: string): unknown {
    const given = name ? this.src.given(name) : undefined;
    const named = members.find((e) => given !== undefined && String(e).toLowerCase() === given.toLowerCase());
    return named ?? members.find((e) => typeof e === 'string' && this.src.mentions(e)) ?? members[0];
  }

  private object(s: Schema, ctx: Ctx): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const props = (s.properties ?? {}) as Schema;
    const required = new Set<string>(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const key of [...Object.keys(props), ...[...required].filter((k) => !(k in props))]) {
      const sub = (key in props ? props[key] : (s.additionalProperties ?? {})) as Schema | undefined;
      const optional = !required.has(key);
      if (optional && (ctx.minimal || this.src.given(key) === undefined)) continue;
      const words = [...wordsOf(key), ...wordsOf(typeof sub?.description === 'string' ? sub.description : '')];
      out[key] = this.value(sub, key, { ...ctx, words });
    }
    return out;
  }

  private array(s: Schema, name: string, ctx: Ctx): unknown[] {
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const n = Math.min(ctx.minimal ? min : Math.max(min, 1), typeof s.maxItems === 'number' ? s.maxItems : Infinity);
    const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    const item = (s.items ?? {}) as Schema;
    if (s.uniqueItems) {
      const members = this.resolveRef(item).enum;
      if (Array.isArray(members)) return members.slice(0, n);
    }
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(prefix[i] ?? item, i === 0 ? name : '', ctx));
    return out;
  }

  private number(s: Schema, integer: boolean, name: string, ctx: Ctx): number {
    const ok = (v: number) => matches({ ...s, type: integer ? 'integer' : 'number' }, v, this.resolveRef);
    const fit = (v: number) => fitNumber(s, integer, v, ok);
    // A number the text gives is brought within the bounds ("days=99" with maximum 14 gives 14).
    const okText = (t: string) => t.trim() !== '' && Number.isFinite(Number(t)) && ok(fit(Number(t)));
    const given = name ? this.src.given(name) : undefined;
    const fromText =
      given !== undefined && okText(given)
        ? given
        : (this.src.near(ctx.words, 'number', okText) ?? this.src.nextNumber(okText));
    if (fromText !== undefined) return fit(Number(fromText));
    const fixed = [s.default, ...(Array.isArray(s.examples) ? (s.examples as unknown[]) : [])].find(
      (v): v is number => typeof v === 'number' && ok(v),
    );
    if (fixed !== undefined) return fixed;
    const v = fit(0);
    if (!ok(v)) throw new UnsatisfiableSchema(`no ${integer ? 'integer' : 'number'} lies within its bounds`);
    return v;
  }

  private string(s: Schema, name: string, ctx: Ctx): string {
    const str = { ...s, type: 'string' };
    const ok = (v: unknown): v is string => typeof v === 'string' && matches(str, v, this.resolveRef);
    const given = name ? this.src.given(name) : undefined;
    if (ok(given)) return given;
    const fromText = this.src.near(ctx.words, 'text', ok) ?? this.src.nextText(ok);
    if (fromText !== undefined) return fromText;
    const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
    const fixed = [s.default, ...(Array.isArray(s.examples) ? (s.examples as unknown[]) : []), format].find(ok);
    if (fixed !== undefined) return fixed;
    if (typeof s.pattern === 'string') {
      const written = stringForPattern(s.pattern, ok);
      if (written !== undefined) return written;
      throw new UnsatisfiableSchema(
        `the local model finds no string that matches the pattern ${JSON.stringify(s.pattern)}${s.minLength || s.maxLength !== undefined ? ' within its lengths' : ''}`,
      );
    }
    let v = name || 'value';
    if (typeof s.minLength === 'number' && lengthOf(v) < s.minLength) v += '_'.repeat(s.minLength - lengthOf(v));
    if (typeof s.maxLength === 'number' && lengthOf(v) > s.maxLength) v = Array.from(v).slice(0, s.maxLength).join('');
    if (!ok(v))
      throw new UnsatisfiableSchema(
        `the local model cannot write a string valid against ${JSON.stringify(s).slice(0, 200)}`,
      );
    return v;
  }
}

/** The number nearest `v` within the schema's bounds, moved to a multiple of multipleOf when there is one. */
function fitNumber(s: Schema, integer: boolean, v: number, ok: (v: number) => boolean): number {
  // Draft 4 writes an exclusive bound as `exclusiveMinimum: true` beside `minimum`.
  const bound = (exclusive: unknown, inclusive: unknown) =>
    typeof exclusive === 'number' ? exclusive : exclusive === true ? (inclusive as number) : undefined;
  const lo = bound(s.exclusiveMinimum, s.minimum);
  const hi = bound(s.exclusiveMaximum, s.maximum);
  const floor = Math.max(typeof s.minimum === 'number' ? s.minimum : -Infinity, lo ?? -Infinity);
  const ceil = Math.min(typeof s.maximum === 'number' ? s.maximum : Infinity, hi ?? Infinity);
  if (integer) v = Math.round(v);
  v = Math.min(Math.max(v, floor), ceil);
  if (lo !== undefined && v <= lo) v = integer ? Math.floor(lo) + 1 : Math.min(lo + 1, (lo + ceil) / 2);
  if (hi !== undefined && v >= hi) v = integer ? Math.ceil(hi) - 1 : Math.max(hi - 1, (floor + hi) / 2);
  if (integer && !Number.isInteger(v))
    v = Math.ceil(v) <= ceil && !(hi !== undefined && Math.ceil(v) >= hi) ? Math.ceil(v) : Math.floor(v);
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (step) {
    const up = Math.ceil(v / step) * step;
    v = ok(up) ? up : Math.floor(v / step) * step;
  }
  return v;
}

/** 0 for a branch that ends a recursion at once (null), 1 for one without a $ref, 2 otherwise. */
function rank(b: Schema): number {
  if (b?.type === 'null') return 0;
  return JSON.stringify(b ?? {}).includes('"$ref"') ? 2 : 1;
}

/** A value of the schema, filled from the text by the rule above; throws UnsatisfiableSchema when none is valid. */
export function valueFromSchema(schema: Record<string, unknown>, text: string): unknown {
  const b = new Builder(schema, new TextSource(text));
  const v = b.value(schema, '', { depth: 0, refs: [], minimal: false, words: [] });
  if (!matches(schema, v, b.resolveRef))
    throw new UnsatisfiableSchema('the value the local model wrote is not valid against it');
  return v;
}

/**
 * The same, refusing with a 400 naming the request field (`param`) that holds the schema: a
 * schema the local model cannot answer is the caller's input, never a 500 or invalid JSON.
 */
export function valueOrRefuse(schema: Record<string, unknown>, text: string, param: string): unknown {
  try {
    return valueFromSchema(schema, text);
  } catch (err) {
    if (!(err instanceof UnsatisfiableSchema)) throw err;
    throw new HttpError('schema_unsatisfiable', `${param}: facet-agent cannot answer this schema: ${err.message}`, {
      status: 400,
      extra: { param },
    });
  }
}
