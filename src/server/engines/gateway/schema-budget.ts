/**
 * The one budget every walk of a caller's JSON Schema runs under (ARCHITECTURE "The event loop is
 * for I/O"): writing values, checking them, for every schema of one request together. It counts
 * each expansion (a subschema visited, a `$ref` followed) and each character written, so the work
 * is bounded by construction whatever the schema — a cycle, an alias loop, unions over recursions
 * or a `minLength` of a billion — and a schema past it is refused with a 400, never a 500 or a hang.
 */

/** Subschema visits (writing and checking) for all the schemas of one request. */
export const MAX_SCHEMA_STEPS = 20_000;
/**
 * The longest token of o200k_base, in bytes: max_tokens tokens can carry at most this many bytes
 * each, so a value longer than max_tokens × this could never be answered whole.
 */
export const MAX_TOKEN_BYTES = 128;
/** Characters written for one request's values when the request gives no max tokens. */
export const DEFAULT_MAX_VALUE_CHARS = 512 * 1024;

/** Why no value is written: a schema the local model cannot answer. `path` is where in the schema. */
export class UnsatisfiableSchema extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(path ? `at ${path}: ${message}` : message);
  }
}

/** The characters a request's values may take: what its max tokens can carry, or the default cap. */
export function maxValueChars(maxTokens: number | undefined): number {
  return maxTokens === undefined
    ? DEFAULT_MAX_VALUE_CHARS
    : Math.min(DEFAULT_MAX_VALUE_CHARS, Math.max(1, maxTokens) * MAX_TOKEN_BYTES);
}

export class SchemaBudget {
  private steps = 0;
  private chars = 0;

  constructor(
    readonly maxChars: number = DEFAULT_MAX_VALUE_CHARS,
    readonly maxSteps: number = MAX_SCHEMA_STEPS,
  ) {}

  /** One expansion; past the budget the schema is refused (unions over recursions search exponentially). */
  step(path?: string): void {
    if (++this.steps > this.maxSteps)
      throw new UnsatisfiableSchema(
        `writing and checking its values takes more than ${this.maxSteps} steps (unions over recursions, or values nested too widely)`,
        path,
      );
  }

  /** Steps taken so far. */
  get used(): number {
    return this.steps;
  }

  /** Characters that may still be written. */
  get remaining(): number {
    return this.maxChars - this.chars;
  }

  /**
   * Characters about to be written because of `keyword` (minLength, minItems, minProperties, or
   * the value itself): refused, naming the keyword, when they do not fit.
   */
  spend(n: number, keyword: string, path?: string): void {
    if (n > this.remaining)
      throw new UnsatisfiableSchema(
        `${keyword} asks for a value longer than the answer can hold (at most ${this.maxChars} characters: max_tokens × ${MAX_TOKEN_BYTES} bytes, at most ${DEFAULT_MAX_VALUE_CHARS})`,
        path,
      );
    this.chars += n;
  }
}
