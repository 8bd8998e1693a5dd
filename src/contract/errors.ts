import { z } from 'zod';

/**
 * The error codes of spec 7.2 with their HTTP status, plus the few the local platform adds
 * (KEY_FROZEN, NOT_FOUND, FORBIDDEN, INTERNAL_ERROR, VALIDATION_ERROR). Where the spec leaves the
 * status open (EXPIRED_API_KEY) the decision is recorded in docs/decisions.md.
 */
export const ERROR_CODES = {
  INVALID_API_KEY: 401,
  MISSING_AUTHORIZATION: 401,
  MALFORMED_AUTHORIZATION: 401,
  EXPIRED_API_KEY: 401,
  INVALID_ACCESS_TOKEN: 401,
  // The facet_session cookie's session was logged out or expired (docs/decisions.md "Sessions").
  INVALID_SESSION: 401,
  KEY_FROZEN: 403,
  FORBIDDEN: 403,
  INVALID_ADMIN_KEY: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  MISSING_PARAMETER: 400,
  INVALID_PARAMETER: 400,
  QUERY_TOO_LONG: 400,
  CHAT_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  CONVERSATION_CREATE_FAILED: 502,
  CONVERSATION_FOLLOW_UP_FAILED: 502,
  CONVERSATION_QUERY_FAILED: 502,
  PPT_TASK_CREATE_FAILED: 502,
  PPT_TASK_QUERY_FAILED: 502,
  LANDING_PAGE_TASK_CREATE_FAILED: 502,
  INSUFFICIENT_CREDITS: 402,
  MINDMAP_CREATE_FAILED: 502,
  LIVEDOC_CREATE_FAILED: 502,
  LIVEDOC_NOT_FOUND: 404,
  LLM_SERVICE_UNAVAILABLE: 503,
  LLM_REQUEST_TIMEOUT: 504,
  WEB_EXTRACT_FAILED: 400,
  YOUTUBE_SUBTITLING_FAILED: 400,
  SOCIAL_SEARCH_FAILED: 400,
  RATE_LIMIT_EXCEEDED: 429,
  insufficient_credits: 402,
  VALIDATION_ERROR: 422,
  PAYLOAD_TOO_LARGE: 413,
  CONFLICT: 409,
  // A user holds as many usable API keys as the server allows (--max-keys-per-user).
  KEY_LIMIT_REACHED: 409,
  // A path that exists, asked with a method it does not have (answered with Allow).
  METHOD_NOT_ALLOWED: 405,
  INTERNAL_ERROR: 500,
  // LiveDocs and conversations (issue 4): codes the local platform adds, see docs/decisions.md
  RESOURCE_NOT_FOUND: 404,
  UNSUPPORTED_RESOURCE_TYPE: 400,
  STREAM_NOT_FOUND: 404,
  STREAM_EXPIRED: 410,
  CONVERSATION_NOT_FOUND: 404,
  // Beta financial endpoints: what needs a paid plan (docs/decisions.md "Beta data").
  PAYMENT_REQUIRED: 402,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes whose status depends on the condition (spec: "400 or 500", "400, 500 or 502"). */
export const VARIABLE_STATUS_CODES: Partial<Record<ErrorCode, number[]>> = {
  WEB_EXTRACT_FAILED: [400, 500],
  YOUTUBE_SUBTITLING_FAILED: [400, 500, 502],
  SOCIAL_SEARCH_FAILED: [400, 500],
};

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code];
}

// ---- error bodies, one per family ----

/** Image task service validation failure (FastAPI style). */
export const ValidationErrorBody = z.object({
  detail: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
});

/** Image task service, any other error. `code` is the local platform's addition. */
export const ImageErrorBody = z.object({ detail: z.string(), code: z.string().optional() });

/** /v2 error envelope. status is "error", or the number 429 for rate limiting (spec 8 rule 3). */
export const V2ErrorBody = z.object({
  status: z.union([z.literal('error'), z.literal(429)]),
  code: z.string(),
  message: z.string(),
  request_id: z.string(),
});

/** Chat Completions and Responses families. */
export const OpenAIErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    code: z.string().nullable(),
    param: z.string().nullable().optional(),
  }),
});

/** Messages family. */
export const AnthropicErrorBody = z.object({
  type: z.literal('error'),
  error: z.object({
    type: z.string(),
    message: z.string(),
    details: z
      .object({ error_code: z.string() })
      .loose()
      .optional()
      .describe('message threads: the error_code the SDK acts on'),
  }),
  request_id: z.string().optional(),
});

/** Decisions: error.code is the numeric HTTP status. */
export const DecisionsErrorBody = z.object({
  error: z.object({ code: z.number().int(), message: z.string() }),
});

/** /v1/beta HTTP errors carry a request id; provider errors ride in the provider envelope. */
export const BetaErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  request_id: z.string(),
});

/** Financial endpoints. */
export const FinancialErrorBody = z.object({ error: z.string(), message: z.string() });

/**
 * /mcp: a JSON-RPC 2.0 error object, as MCP clients read one. The transport's own refusals carry
 * only code and message; the platform's (credentials, Origin, sessions, limits) also `data`, the
 * v2 fields, and a message in the tool errors' form `CODE (HTTP status): message`.
 */
export const JsonRpcErrorBody = z.object({
  jsonrpc: z.literal('2.0'),
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    data: z
      .object({ status: z.number().int(), code: z.string(), message: z.string(), request_id: z.string() })
      .loose()
      .optional(),
  }),
  id: z.union([z.string(), z.number(), z.null()]),
});

/** The failures every authenticated image-service route can answer with. */
export const IMAGE_ROUTE_ERRORS = { 401: ImageErrorBody, 403: ImageErrorBody, 422: ValidationErrorBody } as const;
