import { ERROR_CODES } from '../contract/errors.js';

/** A failure a service raises; the route layer shapes it into the surface's error family. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** Family-specific extras (for example a v2 429 body has status 429 instead of "error"). */
  readonly extra: Record<string, unknown>;
  /** An answer the server means to give (a readiness probe's 503): not logged as a failed request. */
  readonly expected: boolean;

  /** `code` is one of ERROR_CODES, whose status it implies, or a family's own code given with its status. */
  constructor(
    code: string,
    message: string,
    options: {
      status?: number;
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
      expected?: boolean;
    } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? (ERROR_CODES as Record<string, number>)[code] ?? 500;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
    this.expected = options.expected ?? false;
  }
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Request validation failure; each family renders it its own way (422 detail list, v2 400, ...). */
export class RequestValidationError extends Error {
  constructor(
    readonly issues: ValidationIssue[],
    /** True when a required value is absent rather than wrong (v2 MISSING_PARAMETER). */
    readonly missing: boolean,
  ) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

export const notFound = (what: string) => new HttpError('NOT_FOUND', `${what} not found`);
