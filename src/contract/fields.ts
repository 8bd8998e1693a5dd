import { z } from 'zod';

/**
 * Field schemas shared by every surface, so one rule holds everywhere it applies.
 */

// Any count of digits: the integer schema refuses what is past Number.MAX_SAFE_INTEGER (2^53-1, the
// document's bound) with a message that says so, where a digit limit refused 16-digit safe values.
const DECIMAL = /^\d+$/;

/**
 * An integer that arrives as text (a query parameter, a header, a multipart field): decimal digits
 * only. `z.coerce.number()` would take `0x10`, `+5`, ` 5 `, `1e3` and an empty string (as 0); a
 * value a person did not write as a plain number is refused instead of being guessed at. Numbers
 * already parsed (a caller building a query object in code) pass as they are. In the OpenAPI
 * document it is an integer with its bounds.
 */
function decimal(n: z.ZodNumber) {
  return z.preprocess((v) => (typeof v === 'string' && DECIMAL.test(v) ? Number(v) : v), n);
}

interface IntBounds {
  min?: number;
  max?: number;
}

export function textInt(bounds?: IntBounds): ReturnType<typeof decimal>;
export function textInt(bounds: IntBounds & { default: number }): z.ZodDefault<ReturnType<typeof decimal>>;
export function textInt(bounds: IntBounds & { default?: number } = {}) {
  // Only a value that is not a number gets this message; bounds (2^53 - 1 included) keep zod's own, which name them.
  let n = z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.code !== 'invalid_type'
          ? undefined
          : 'must be a decimal integer, digits only (for example 5)',
    })
    .int();
  // Digits only: never below 0, and the document says so.
  n = n.min(bounds.min ?? 0);
  if (bounds.max !== undefined) n = n.max(bounds.max);
  if (bounds.default === undefined) return decimal(n);
  // The OpenAPI document renders the number inside the pipe: the default is shown from there.
  return decimal(n.meta({ default: bounds.default })).default(bounds.default);
}

/**
 * Characters an XML 1.0 document cannot hold (its Char production): C0 controls other than tab, line
 * feed and carriage return, U+FFFE, U+FFFF, and UTF-16 surrogates that are not part of a pair.
 */
export const XML_FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The text without the characters XML cannot hold: for texts that reach a document unchecked. */
export function withoutXmlForbidden(text: string): string {
  return text.replace(new RegExp(XML_FORBIDDEN.source, 'g'), '');
}

/** Where the first character XML cannot hold is: its 1-based position in code points, and its code. */
export function firstXmlForbidden(text: string): { position: number; codePoint: string } | null {
  const m = XML_FORBIDDEN.exec(text);
  if (!m) return null;
  const position = [...text.slice(0, m.index)].length + 1;
  return { position, codePoint: `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` };
}

/**
 * A text the platform draws into an SVG (or any XML document): prompts. Refused at the boundary
 * with the character and its position, rather than failing later inside the renderer.
 */
export function xmlText<T extends z.ZodString>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const bad = firstXmlForbidden(value);
    if (bad)
      ctx.addIssue({
        code: 'custom',
        message: `contains ${bad.codePoint} at character ${bad.position}, which cannot appear in text (control characters other than tab and line breaks, U+FFFE, U+FFFF, unpaired surrogates)`,
      });
  });
}

/**
 * The parts a multipart upload takes: file parts by field name with how many each may carry, and
 * the text fields (each at most once). Anything else in the form is refused, not dropped.
 */
export interface MultipartForm {
  files: Readonly<Record<string, number>>;
  fields: readonly string[];
}

/** An absolute URL of one of `protocols` (e.g. `['https:']`), at most 2000 characters, trimmed. */
export function absoluteUrl(protocols: readonly string[], message: string) {
  // The refine is invisible to JSON Schema: the document says what it takes (a subset: any case of the scheme is taken).
  const schemes = protocols.map((p) => p.replace(/:$/, ''));
  return z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .refine((s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    }, message)
    .meta({ format: 'uri', pattern: `^(${schemes.join('|')})://[^\\s/?#]+` });
}

const squash = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A JSON object whose unknown fields are refused (400), for bodies where a misspelt optional field
 * would silently change what happens (`livedoc_short_id` for `live_doc_short_id` made a new
 * LiveDoc). The message names the unknown field, the field it resembles and the fields taken.
 */
export function strictFields<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? unknownNamesMessage(issue.keys, known, 'field', 'this object') : undefined,
  });
}

/** "unknown field x (did you mean y?); this object takes a, b": names what was sent and what is taken. */
export function unknownNamesMessage(keys: string[], known: string[], noun: string, taker: string): string {
  const guesses = keys.map((k) => known.find((f) => squash(f) === squash(k))).filter(Boolean);
  const hint = guesses.length ? ` (did you mean ${guesses.join(', ')}?)` : '';
  return `unknown ${noun}${keys.length > 1 ? 's' : ''} ${keys.join(', ')}${hint}; ${taker} takes ${known.join(', ')}`;
}

/**
 * A text that must hold more than white space (the server trims it, or its parser skips blanks): the
 * document says so with a pattern, since minLength alone accepts " ".
 */
export const NOT_BLANK = { pattern: '\\S' };

/** A text trimmed before its length is checked: 1 to `max` characters, not only white space. */
export function trimmedText(max: number) {
  return z.string().trim().min(1).max(max).meta(NOT_BLANK);
}
