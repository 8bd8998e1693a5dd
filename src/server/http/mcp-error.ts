import type { ShapedError } from './shaped-error.js';

/**
 * JSON-RPC error codes for the platform's refusals on /mcp: -32001 for a session that is not there
 * (the MCP SDK's own transport uses it), -32600 for a request that cannot be read, -32000 for any
 * other server refusal (credentials, Origin, limits, outages).
 */
function rpcCode(status: number): number {
  if (status === 404) return -32001;
  if (status === 400 || status === 405 || status === 413 || status === 415) return -32600;
  return -32000;
}

/** RFC 6750's challenge: no error attribute when no credential came, `invalid_token` for a bad one. */
const CHALLENGES: Record<string, string> = {
  MISSING_AUTHORIZATION: 'Bearer realm="facet"',
  MALFORMED_AUTHORIZATION:
    'Bearer realm="facet", error="invalid_request", error_description="send Authorization: Bearer followed by an API key"',
  INVALID_API_KEY: 'Bearer realm="facet", error="invalid_token", error_description="the API key is not valid"',
  EXPIRED_API_KEY: 'Bearer realm="facet", error="invalid_token", error_description="the API key has expired"',
};

/**
 * A refusal on /mcp as MCP clients read it: a JSON-RPC error whose message is the tool errors'
 * `CODE (HTTP status): message` and whose data holds the v2 fields; a 401 challenges for a bearer
 * token (an API key), so clients say "unauthorized" instead of "an error response".
 */
export function mcpError(
  status: number,
  code: string,
  message: string,
  requestId: string,
  headers: Record<string, string>,
  extra: Record<string, unknown>,
): ShapedError {
  const challenge: Record<string, string> =
    status === 401 ? { 'www-authenticate': CHALLENGES[code] ?? CHALLENGES.MISSING_AUTHORIZATION } : {};
  return {
    status,
    headers: { ...headers, ...challenge },
    body: {
      jsonrpc: '2.0',
      error: {
        code: rpcCode(status),
        message: `${code} (HTTP ${status}): ${message}`,
        data: { status, code, message, request_id: requestId, ...extra },
      },
      // The message was not read (or not trusted) when the platform refuses, so no id is known.
      id: null,
    },
  };
}
