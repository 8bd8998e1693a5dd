import { execBuilt, patternMatches, quote } from './caller-patterns.js';

/**
 * A value valid against a JSON Schema, built from a text: how the local agent model fills a tool's
 * arguments and a structured answer, as a pure function of the request. The rule (README, decisions):
 *
 * - an object has its required properties, plus any optional one the text gives as `name: value` or
 *   `name=value`;
 * - a property given in the text as `name: value` / `name=value` (the value bare, "double-" or
 *   'single-quoted') takes that value (a number when it reads as one; a string with a `format`
 *   always takes the fixed value below, so it stays valid);
 * - otherwise a string takes the next "double-quoted" text of the text not used yet, a number the
 *   next number of the text not used yet;
 * - otherwise the schema's `const`, `default` or first `examples` entry; an enum takes the member the
 *   text mentions, else its first; a string with a `format` a fixed valid value of that format; else
 *   a string is the property's name, a number its minimum (or 0), a boolean false, an array one item
 *   (or minItems items), null null;
 * - `$ref` (to `#/$defs` or `#/definitions`), `anyOf`/`oneOf` (the first branch that is not null),
 *   `allOf` (merged) and type lists (the first type that is not null) are followed; lengths, bounds
 *   and multipleOf are respected.
 */
type Schema = Record<string, any>;

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
const MAX_DEPTH = 16;


class TextSource {
  private quoted: string[];
  private numbers: number[];
  constructor(readonly text: string) {
    this.quoted = [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    this.numbers = [...text.replace(/\b\w+\s*[:=]\s*("[^"]*"|'[^']*'|[^\s,;]+)/g, ' ').matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  }

  private readonly givenByName = new Map<string, string | undefined>();

  /** The value the text gives a property as `name: value` or `name=value` (asked twice per property, found once). */
  given(name: string): string | undefined {
    if (!this.givenByName.has(name)) this.givenByName.set(name, this.find(name));
    return this.givenByName.get(name);
  }

  private find(name: string): string | undefined {
    // RE2 (no lookbehind): the name starts the text or follows a character that is not part of a name.
    const m = execBuilt(`(?:^|[^\\w-])${quote(name)}\\s*[:=]\\s*(?:"([^"]*)"|'([^']*)'|([^\\s,;]+))`, this.text, { ignoreCase: true });
    if (!m) return undefined;
    return m[1] ?? m[2] ?? m[3].replace(/[.?!)]+$/, '');
  }

  nextQuoted(): string | undefined {
    return this.quoted.shift();
  }

  nextNumber(): number | undefined {
    return this.numbers.shift();
  }

  mentions(word: string): boolean {
    return execBuilt(`(?:^|[^\\w-])${quote(word)}(?:$|[^\\w-])`, this.text, { ignoreCase: true }) !== null;
  }
}

function typeOf(s: Schema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t: string) => t !== 'null') ?? 'null';
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

class Builder {
  constructor(
    private readonly root: Schema,
    private readonly src: TextSource,
  ) {}

  private resolve(s: Schema, depth: number): Schema {
    let out = s;
    for (let hops = 0; typeof out?.$ref === 'string' && hops < MAX_DEPTH; hops++) {
      const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(out.$ref);
      const target = m ? this.root[m[1]]?.[decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~')] : out.$ref === '#' ? this.root : undefined;
      if (!target) return {};
      const { $ref: _ref, ...rest } = out;
      out = { ...target, ...rest };
    }
    const branches = out.anyOf ?? out.oneOf;
    if (Array.isArray(branches) && branches.length && depth < MAX_DEPTH) {
      const { anyOf: _a, oneOf: _o, ...rest } = out;
      const pick = branches.find((b: Schema) => this.resolve(b, depth + 1).type !== 'null') ?? branches[0];
      out = { ...rest, ...this.resolve(pick, depth + 1) };
    }
    if (Array.isArray(out.allOf) && depth < MAX_DEPTH) {
      const { allOf, ...rest } = out;
      out = (allOf as Schema[]).reduce<Schema>(
        (acc, part) => {
          const r = this.resolve(part, depth + 1);
          return { ...acc, ...r, properties: { ...acc.properties, ...r.properties }, required: [...(acc.required ?? []), ...(r.required ?? [])] };
        },
        { ...rest },
      );
    }
    return out;
  }

  value(schema: Schema, name: string, depth = 0): unknown {
    const s = this.resolve(schema ?? {}, depth);
    if ('const' in s) return s.const;
    const given = name ? this.src.given(name) : undefined;
    if (Array.isArray(s.enum) && s.enum.length) {
      const named = s.enum.find((e: unknown) => given !== undefined && String(e).toLowerCase() === given.toLowerCase());
      return named ?? s.enum.find((e: unknown) => typeof e === 'string' && this.src.mentions(e)) ?? s.enum[0];
    }
    const type = typeOf(s);
    if (depth >= MAX_DEPTH) return type === 'object' ? {} : type === 'array' ? [] : null;
    switch (type) {
      case 'object':
        return this.object(s, depth);
      case 'array':
        return this.array(s, name, depth);
      case 'integer':
      case 'number':
        return this.number(s, type === 'integer', given);
      case 'boolean':
        if (given === 'true' || given === 'false') return given === 'true';
        return typeof s.default === 'boolean' ? s.default : false;
      case 'null':
        return null;
      default:
        return this.string(s, name, given);
    }
  }

  private object(s: Schema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
    for (const [key, sub] of Object.entries<Schema>(s.properties ?? {})) {
      if (required.has(key) || this.src.given(key) !== undefined) out[key] = this.value(sub, key, depth + 1);
    }
    return out;
  }

  private array(s: Schema, name: string, depth: number): unknown[] {
    const min = Math.max(s.minItems ?? 0, 1);
    const n = Math.min(min, s.maxItems ?? min);
    const items = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(this.value(items[i] ?? s.items ?? {}, i === 0 ? name : '', depth + 1));
    if (s.uniqueItems) {
      const item = this.resolve(s.items ?? {}, depth + 1);
      if (Array.isArray(item.enum)) return item.enum.slice(0, n);
    }
    return out;
  }

  private number(s: Schema, integer: boolean, given: string | undefined): number {
    const fromText = given !== undefined && given.trim() !== '' && Number.isFinite(Number(given)) ? Number(given) : this.src.nextNumber();
    const fallback = typeof s.default === 'number' ? s.default : typeof s.examples?.[0] === 'number' ? s.examples[0] : undefined;
    let v = fromText ?? fallback ?? 0;
    const step = integer ? 1 : 1e-6;
    const lo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + step : s.minimum;
    const hi = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - step : s.maximum;
    if (integer) v = Math.round(v);
    if (typeof lo === 'number' && v < lo) v = integer ? Math.ceil(lo) : lo;
    if (typeof hi === 'number' && v > hi) v = integer ? Math.floor(hi) : hi;
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
      const k = Math.ceil(v / s.multipleOf);
      v = k * s.multipleOf;
      if (typeof hi === 'number' && v > hi) v = (k - 1) * s.multipleOf;
    }
    return v;
  }

  private string(s: Schema, name: string, given: string | undefined): string {
    const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
    let v: string = (format ? undefined : (given ?? this.src.nextQuoted())) ?? (typeof s.default === 'string' ? s.default : undefined) ?? (typeof s.examples?.[0] === 'string' ? s.examples[0] : undefined) ?? format ?? (name || 'value');
    if (typeof s.pattern === 'string' && !safeTest(s.pattern, v) && typeof s.default !== 'string') v = s.examples?.find?.((e: unknown) => typeof e === 'string' && safeTest(s.pattern, e)) ?? v;
    const chars = Array.from(v);
    if (typeof s.maxLength === 'number' && chars.length > s.maxLength) v = chars.slice(0, s.maxLength).join('');
    if (typeof s.minLength === 'number' && Array.from(v).length < s.minLength) v = v.padEnd(v.length + s.minLength - Array.from(v).length, '_');
    return v;
  }
}

/** The caller's pattern runs on RE2 (caller-patterns.ts): linear time, whatever the pattern. */
const safeTest = patternMatches;

/** A value of the schema, filled from the text by the rule above. */
export function valueFromSchema(schema: Record<string, unknown>, text: string): unknown {
  return new Builder(schema, new TextSource(text)).value(schema, '');
}
