import type { ErrorFamily } from '../../contract/route.js';
import { HttpError, RequestValidationError } from '../errors.js';
import { mcpError } from './mcp-error.js';
import type { ShapedError } from './shaped-error.js';
import { UnstorableText } from '../store/unstorable-text.js';

export type { ShapedError };

const OPENAI_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'service_unavailable',
};

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

/**
 * Turns any failure into the body of the surface it happened on (ARCHITECTURE "Error families").
 * Only 4xx keep their message; a 5xx that was not raised on purpose says "internal error".
 */
export function shapeError(
  family: ErrorFamily,
  err: unknown,
  requestId: string,
  validationStatus?: number,
  validationCode?: string,
): ShapedError {
  if (err instanceof RequestValidationError) {
    return shapeValidation(family, err, requestId, validationStatus, validationCode);
  }
  const e =
    err instanceof HttpError
      ? err
      : err instanceof UnstorableText
        ? new HttpError('INVALID_PARAMETER', err.message, { status: 400 })
        : new HttpError('INTERNAL_ERROR', 'Internal server error', { status: 500 });
  const headers = e.headers;
  const status = e.status;
  switch (family) {
    case 'image':
      return { status, headers, body: { detail: e.message, code: e.code } };
    case 'v2':
      return {
        status,
        headers,
        body: { status: 'error', code: e.code, message: e.message, request_id: requestId, ...e.extra },
      };
    case 'openai':
      return {
        status,
        headers,
        body: {
          error: {
            message: e.message,
            type: OPENAI_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
            code: e.code,
            param: (e.extra.param as string) ?? null,
          },
        },
      };
    case 'anthropic':
      return {
        status,
        headers,
        body: {
          type: 'error',
          error: {
            type: ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
            message: e.message,
            ...(e.extra.details ? { details: e.extra.details } : {}),
          },
          request_id: requestId,
        },
      };
    case 'decisions':
      return { status, headers, body: { error: { code: status, message: e.message } } };
    case 'financial':
      return { status, headers, body: { error: e.code, message: e.message } };
    case 'beta':
      return { status, headers, body: { error: { code: e.code, message: e.message }, request_id: requestId } };
    case 'mcp':
      return mcpError(status, e.code, e.message, requestId, headers, e.extra);
  }
}

function shapeValidation(
  family: ErrorFamily,
  err: RequestValidationError,
  requestId: string,
  override?: number,
  codeOverride?: string,
): ShapedError {
  const message = err.message;
  switch (family) {
    case 'image':
      return { status: override ?? 422, headers: {}, body: { detail: err.issues } };
    case 'v2': {
      const code = codeOverride ?? (err.missing ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER');
      return { status: override ?? 400, headers: {}, body: { status: 'error', code, message, request_id: requestId } };
    }
    default: {
      const e = new HttpError(err.missing ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', message, {
        status: override ?? 400,
        extra: { param: err.issues[0]?.loc.slice(1).join('.') || null },
      });
      return shapeError(family, e, requestId);
    }
  }
}
