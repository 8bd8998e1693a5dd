import { HttpError } from '../../errors.js';
import { stringForPattern } from './pattern-values.js';
import { SchemaBudget, UnsatisfiableSchema } from './schema-budget.js';
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
 *   branch that ends it — so a tree ends in empty arrays, never a `null` string. A `$ref` met again
 *   inside that smallest value (or a `$ref` that aliases itself) is a cycle every value must enter:
 *   refused, naming where it is. An optional place that would enter one (an optional property, an
 *   array item past minItems, a union branch with an alternative) is left out instead;
 * - an object has at least minProperties properties (the optional ones first, then extra names
 *   when additionalProperties allows them);
 * - `anyOf` takes its first branch whose value is valid, `oneOf` the first whose value no other
 *   branch also takes; `allOf` is merged; type lists take their first type that is not null.
 * The answer is checked against the whole schema (schema-match.ts); one that fails is refused
 * with a 400 rather than sent, and so is a schema no value can be written for. All of it runs
 * under one SchemaBudget (schema-budget.ts): steps and characters written, so no schema makes
 * the work unbounded.
 */
interface Ctx {
  depth: number;
  /** The `$ref`s followed on the way here. */
  refs: string[];
  /** Those followed since the value became the smallest one: one met again there is a cycle. */
  minimalRefs: string[];
  minimal: boolean;
  words: string[];
  /** Where in the schema this value's subschema is (a JSON pointer), for the refusals. */
  at: string;
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
/** The fewest characters a property takes in JSON (`"k":0,`), for refusing a minProperties that cannot fit. */
const MIN_MEMBER_CHARS = 6;

export { UnsatisfiableSchema } from './schema-budget.js';

const pointer = (at: string, ...parts: Array<string | number>) =>
  [at, ...parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');

const asSchema = (x: unknown): Schema => (typeof x === 'object' && x !== null ? (x as Schema) : {});

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

/** A cycle every valid value would enter: no finite value exists. */
function cycle(ref: string, at: string): UnsatisfiableSchema {
  return new UnsatisfiableSchema(
    `the $ref ${JSON.stringify(ref)} closes a cycle every valid value must enter (through required properties, minItems or unions with no other branch): no finite value exists`,
    at,
  );
}

/** A schema no value is valid against. */
const NOTHING: Schema = { not: {} };

/** The context inside a followed `$ref`: met again, the value is the smallest one; met again there, a cycle. */
function enter(ctx: Ctx, ref: string, at: string): Ctx {
  if (ctx.minimalRefs.includes(ref)) throw cycle(ref, ctx.at);
  const minimal = ctx.minimal || ctx.refs.includes(ref);
  return {
    ...ctx,
    refs: [...ctx.refs, ref],
    minimal,
    minimalRefs: minimal ? [...ctx.minimalRefs, ref] : ctx.minimalRefs,
    at,
  };
}

class Builder {
  constructor(
    private readonly root: Schema,
    private readonly src: TextSource,
    private readonly budget: SchemaBudget,
  ) {}

  /** The schema a `$ref` points at, with the referring schema's own keywords on top. */
  private deref(s: Schema, ref: string, at: string): Schema {
    this.budget.step(at);
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = m ? (this.root[m[1]] as Schema | undefined) : undefined;
    const target: unknown = m
      ? defs?.[decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~')]
      : ref === '#'
        ? this.root
        : undefined;
    if (!target) throw new UnsatisfiableSchema(`the $ref ${ref} points at no definition of the schema`, at);
    const { $ref: _ref, ...rest } = s;
    return { ...(target as Schema), ...rest };
  }

  /** For the validator: $ref followed (schema-match.ts follows the rest itself); an alias loop is refused. */
  readonly resolveRef = (s: Schema): Schema => {
    this.budget.step();
    let out = s;
    const seen: string[] = [];
    while (typeof out?.$ref === 'string') {
      // An alias loop: no value is valid against it (the writer refuses it as a cycle).
      if (seen.includes(out.$ref)) return NOTHING;
      seen.push(out.$ref);
      out = this.deref(out, out.$ref, out.$ref);
    }
    return out;
  };

  /**
   * allOf merged into one schema; a part that refers back to one being merged is a cycle. The
   * $refs its parts follow are added to `seen`, so the value's cycle checks know them too.
   */
  private merged(s: Schema, at: string, seen: string[]): Schema {
    if (!Array.isArray(s.allOf)) return s;
    const { allOf, ...rest } = s;
    return (allOf as unknown[]).reduce<Schema>((acc, part, i) => {
      let p = asSchema(part);
      let pAt = pointer(at, 'allOf', i);
      while (typeof p.$ref === 'string') {
        if (seen.includes(p.$ref)) throw cycle(p.$ref, pAt);
        seen.push(p.$ref);
        p = this.deref(p, p.$ref, pAt);
        pAt = seen[seen.length - 1];
      }
      const r = this.merged(p, pAt, seen);
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
    this.budget.step(ctx.at);
    if (ctx.depth > MAX_DEPTH)
      throw new UnsatisfiableSchema('its values nest deeper than 32 levels (a recursion with no way to end)', ctx.at);
    let s = asSchema(schema);
    // $refs followed here: one met again on the way is written as its smallest value; one met
    // again within that smallest value, or twice in this chain of aliases, is a cycle.
    const chain: string[] = [];
    while (typeof s.$ref === 'string') {
      const ref = s.$ref;
      if (chain.includes(ref)) throw cycle(ref, ctx.at);
      chain.push(ref);
      s = this.deref(s, ref, ctx.at);
      ctx = enter(ctx, ref, ref);
    }
    const merged = [...chain];
    s = this.merged(s, ctx.at, merged);
    for (const ref of merged.slice(chain.length)) ctx = enter(ctx, ref, ctx.at);
    if (ctx.depth >= MINIMAL_DEPTH && !ctx.minimal) ctx = { ...ctx, minimal: true };
    const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (Array.isArray(branches) && branches.length) return this.union(s, branches, name, ctx);
    if ('const' in s) return this.spent(s.const, 'const', ctx.at);
    if (Array.isArray(s.enum) && s.enum.length) return this.spent(this.member(s.enum, name), 'enum', ctx.at);
    const type = typeOf(s, ctx.minimal);
    const inner = { ...ctx, depth: ctx.depth + 1 };
    switch (type) {
      case 'object':
        return this.object(s, inner);
      case 'array':
        return this.array(s, name, inner);
      case 'integer':
      case 'number':
        return this.spent(this.number(s, type === 'integer', name, ctx), 'the number', ctx.at);
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

  /** A scalar value, its JSON counted against the budget. */
  private spent<T>(v: T, keyword: string, at: string): T {
    this.budget.spend(JSON.stringify(v ?? null).length, keyword, at);
    return v;
  }

  /** anyOf: the first branch whose value is valid; oneOf: the first whose value no other branch takes. */
  private union(s: Schema, branches: Schema[], name: string, ctx: Ctx): unknown {
    const keyword = s.anyOf ? 'anyOf' : 'oneOf';
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    const order = branches.map((b, i) => ({ b, i }));
    // Inside a recursion the branch that ends it comes first: null, then one with no $ref.
    if (ctx.minimal) order.sort((x, y) => rank(x.b) - rank(y.b) || x.i - y.i);
    let firstError: unknown;
    for (const { b, i } of order) {
      try {
        const v = this.value({ ...rest, ...asSchema(b) }, name, { ...ctx, at: pointer(ctx.at, keyword, i) });
        if (matches(s, v, this.resolveRef)) return v;
      } catch (err) {
        if (!(err instanceof UnsatisfiableSchema)) throw err;
        firstError ??= err;
      }
    }
    // The first branch's own failure, as it was thrown.
    const failure =
      firstError ??
      new UnsatisfiableSchema(`no branch of its ${keyword} takes a value the local model can write`, ctx.at);
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw failure;
  }

  private member(members: unknown[], name: string): unknown {
    const given = name ? this.src.given(name) : undefined;
    const named = members.find((e) => given !== undefined && String(e).toLowerCase() === given.toLowerCase());
    return named ?? members.find((e) => typeof e === 'string' && this.src.mentions(e)) ?? members[0];
  }

  private object(s: Schema, ctx: Ctx): Record<string, unknown> {
    const minProperties = typeof s.minProperties === 'number' ? s.minProperties : 0;
    if (minProperties * MIN_MEMBER_CHARS > this.budget.remaining)
      this.budget.spend(minProperties * MIN_MEMBER_CHARS, 'minProperties', ctx.at);
    this.budget.spend(2, 'the object', ctx.at);
    const out: Record<string, unknown> = {};
    const props = asSchema(s.properties);
    const required = new Set<string>(Array.isArray(s.required) ? (s.required as string[]) : []);
    const put = (key: string, optional: boolean) => {
      const inProps = Object.hasOwn(props, key);
      const sub = asSchema(inProps ? props[key] : s.additionalProperties);
      const words = [...wordsOf(key), ...wordsOf(typeof sub.description === 'string' ? sub.description : '')];
      const at = inProps ? pointer(ctx.at, 'properties', key) : pointer(ctx.at, 'additionalProperties');
      try {
        this.budget.spend(JSON.stringify(key).length + 2, 'the object', at);
        out[key] = this.value(sub, key, { ...ctx, words, at });
      } catch (err) {
        // An optional property that cannot be written (a cycle, say) is left out.
        if (!optional || !(err instanceof UnsatisfiableSchema)) throw err;
      }
    };
    for (const key of [...Object.keys(props), ...[...required].filter((k) => !Object.hasOwn(props, k))]) {
      const optional = !required.has(key);
      if (optional && (ctx.minimal || this.src.given(key) === undefined)) continue;
      put(key, optional);
    }
    // minProperties: the optional properties, then names of its own where additionalProperties allows.
    for (const key of Object.keys(props)) {
      if (Object.keys(out).length >= minProperties) break;
      if (!Object.hasOwn(out, key)) put(key, true);
    }
    for (let i = 1; Object.keys(out).length < minProperties && s.additionalProperties !== false; i++) {
      const key = `property_${i}`;
      if (!Object.hasOwn(props, key) && !Object.hasOwn(out, key)) put(key, false);
    }
    return out;
  }

  private array(s: Schema, name: string, ctx: Ctx): unknown[] {
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const n = Math.min(ctx.minimal ? min : Math.max(min, 1), typeof s.maxItems === 'number' ? s.maxItems : Infinity);
    // Brackets and commas: a minItems past what the answer can hold is refused before any item is written.
    this.budget.spend(1 + Math.max(1, n), n > 1 ? 'minItems' : 'the array', ctx.at);
    const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    const item = asSchema(s.items);
    if (s.uniqueItems) {
      const members = this.resolveRef(item).enum;
      if (Array.isArray(members)) return this.spent(members.slice(0, n), 'uniqueItems', ctx.at);
    }
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const at = i < prefix.length ? pointer(ctx.at, 'prefixItems', i) : pointer(ctx.at, 'items');
      try {
        out.push(this.value(prefix[i] ?? item, i === 0 ? name : '', { ...ctx, at }));
      } catch (err) {
        // Items past minItems are optional: one that cannot be written (a cycle) is left out.
        if (i < min || !(err instanceof UnsatisfiableSchema)) throw err;
        break;
      }
    }
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
    if (!ok(v)) throw new UnsatisfiableSchema(`no ${integer ? 'integer' : 'number'} lies within its bounds`, ctx.at);
    return v;
  }

  private string(s: Schema, name: string, ctx: Ctx): string {
    // A length the answer cannot hold is refused before anything is tried (or a string of it built).
    if (typeof s.minLength === 'number' && s.minLength + 2 > this.budget.remaining)
      this.budget.spend(s.minLength + 2, 'minLength', ctx.at);
    const v = this.stringValue(s, name, ctx);
    this.budget.spend(JSON.stringify(v).length, typeof s.minLength === 'number' ? 'minLength' : 'the string', ctx.at);
    return v;
  }

  private stringValue(s: Schema, name: string, ctx: Ctx): string {
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
        ctx.at,
      );
    }
    let v = name || 'value';
    if (typeof s.minLength === 'number' && lengthOf(v) < s.minLength) v += '_'.repeat(s.minLength - lengthOf(v));
    if (typeof s.maxLength === 'number' && lengthOf(v) > s.maxLength) v = Array.from(v).slice(0, s.maxLength).join('');
    if (!ok(v))
      throw new UnsatisfiableSchema(
        `the local model cannot write a string valid against ${JSON.stringify(s).slice(0, 200)}`,
        ctx.at,
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

/**
 * A value of the schema, filled from the text by the rule above; throws UnsatisfiableSchema when
 * none is valid or the budget (one per request: pass the same one for each of its schemas) runs out.
 */
export function valueFromSchema(
  schema: Record<string, unknown>,
  text: string,
  budget: SchemaBudget = new SchemaBudget(),
): unknown {
  const b = new Builder(schema, new TextSource(text), budget);
  const v = b.value(schema, '', { depth: 0, refs: [], minimalRefs: [], minimal: false, words: [], at: '#' });
  if (!matches(schema, v, b.resolveRef))
    throw new UnsatisfiableSchema('the value the local model wrote is not valid against it');
  return v;
}

/** The refusal of a schema the local model cannot answer, naming the request field (`param`) that holds it. */
export function unsatisfiable(param: string, err: UnsatisfiableSchema): HttpError {
  return new HttpError('schema_unsatisfiable', `${param}: facet-agent cannot answer this schema: ${err.message}`, {
    status: 400,
    extra: { param },
  });
}

/**
 * The same, refusing with a 400 naming the request field (`param`) that holds the schema: a
 * schema the local model cannot answer is the caller's input, never a 500 or invalid JSON.
 */
export function valueOrRefuse(
  schema: Record<string, unknown>,
  text: string,
  param: string,
  budget?: SchemaBudget,
): unknown {
  try {
    return valueFromSchema(schema, text, budget);
  } catch (err) {
    if (!(err instanceof UnsatisfiableSchema)) throw err;
    throw unsatisfiable(param, err);
  }
}
