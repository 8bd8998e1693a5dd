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
