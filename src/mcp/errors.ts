import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A failure the platform reported in a provider envelope or a task's end state (HTTP was 200). */
export class PlatformOutcomeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformOutcomeError';
  }
}

interface ApiErrorLike {
  name: 'ApiError';
  status: number;
  code: string;
  message: string;
  requestId?: string;
  retryAfterSeconds?: number;
}
const isApiError = (e: unknown): e is ApiErrorLike => (e as Error | null)?.name === 'ApiError';

/**
 * Any failure of a tool as a tool result with isError, never a protocol error: the agent reads the
 * platform's code and message (402 credits, 429 with its retry time, 404) and can act on them.
 * The first line is `CODE (HTTP status): message`; further lines are `name: value`.
 */
export function toolError(err: unknown): CallToolResult {
  const lines: string[] = [];
  const error: Record<string, unknown> = {};
  if (isApiError(err)) {
    lines.push(`${err.code} (HTTP ${err.status}): ${err.message}`);
    Object.assign(error, { status: err.status, code: err.code, message: err.message });
    if (err.retryAfterSeconds !== undefined) {
      const wait = Math.ceil(err.retryAfterSeconds);
      lines.push(`retry_after_seconds: ${wait}`);
      error.retry_after_seconds = wait;
    }
    if (err.requestId) {
      lines.push(`request_id: ${err.requestId}`);
      error.request_id = err.requestId;
    }
  } else if (err instanceof PlatformOutcomeError) {
    lines.push(`${err.code}: ${err.message}`);
    Object.assign(error, { code: err.code, message: err.message });
  } else {
    const e = err as Error | null | undefined;
    // NetworkError, RequestTimeoutError, MissingCredentialError: their messages say what to do.
    const code = e?.name === 'MissingCredentialError' ? 'MISSING_CREDENTIALS' : 'FAILED';
    lines.push(`${code}: ${e?.message ?? String(err)}`);
    Object.assign(error, { code, message: e?.message ?? String(err) });
  }
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], _meta: { 'facet/error': error } };
}

/** One refused argument: where it is (`urls.2`), and what is wrong with it. */
interface ArgumentIssue {
  path: PropertyKey[];
  code: string;
  message: string;
}

/**
 * Arguments the tool's input schema refuses, in the form of every other tool error: the code and
 * status the platform gives a request it cannot take (`MISSING_PARAMETER` when a required argument
 * is absent, else `INVALID_PARAMETER`, HTTP 400), then each field with what is wrong with it.
 */
export function argumentsError(tool: string, args: unknown, issues: readonly ArgumentIssue[]): CallToolResult {
  const given = (args ?? {}) as Record<string, unknown>;
  const absent = (i: ArgumentIssue) =>
    (i.code === 'invalid_type' || i.code === 'invalid_value') &&
    i.path.length === 1 &&
    given[String(i.path[0])] === undefined;
  const missing = issues.some(absent);
  const fields = issues.map((i) => ({
    field: i.path.map(String).join('.') || '(arguments)',
    message: absent(i) ? 'required' : i.message,
  }));
  const code = missing ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER';
  const message = `${tool}: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${code} (HTTP 400): ${message}` }],
    _meta: { 'facet/error': { status: 400, code, message, fields } },
  };
}
