import { z } from 'zod';
import { defineRoute } from './route.js';
import { JsonRpcErrorBody } from './errors.js';

/**
 * /mcp: the platform's tools for agents over the Model Context Protocol's Streamable HTTP transport
 * (docs/decisions.md "facet for agents"). The bodies are JSON-RPC 2.0 messages, read and answered
 * by the MCP SDK's transport; authentication is an API key as a bearer token, as for /v2. Every
 * refusal is a JSON-RPC error object: the platform's (credentials with `WWW-Authenticate: Bearer`,
 * Origin and Host, sessions, limits) carry the v2 fields in `error.data`; the transport's own
 * (Accept, content type, a malformed message) only a code and a message.
 */

export const MCP_PATH = '/mcp';
/** The session header of the MCP specification. */
export const MCP_SESSION_HEADER = 'mcp-session-id';
/** Sessions one key may hold at once; a new one beyond it ends that key's least recently used idle one. */
export const MCP_MAX_SESSIONS_PER_KEY = 10;
/** A session with no request for this long is ended (its client starts a new one, as the spec says). */
export const MCP_IDLE_SECONDS = 30 * 60;

const Id = z.union([z.string(), z.number(), z.null()]);
export const JsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: Id.optional(),
  method: z.string().optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
export { JsonRpcErrorBody };
/** Browser origins /mcp answers besides local ones and the public URL's (`--mcp-allowed-origin`; `*` any). */
export const MCP_ANY_ORIGIN = '*';

const SessionHeader = z.object({
  [MCP_SESSION_HEADER]: z.string().min(1).max(200).describe('the session id the initialize answer gave'),
});
const OptionalSessionHeader = z.object({
  [MCP_SESSION_HEADER]: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('the session id the initialize answer gave; absent on the initialize request itself'),
});

const stream = {
  status: 200,
  description: 'JSON-RPC messages: progress notifications, then the answer to the request',
  events: [{ event: 'message', data: JsonRpcMessage }],
} as const;
const base = { path: MCP_PATH, auth: 'bearer-key', family: 'mcp', tag: 'mcp', envelope: false } as const;
const refusals = {
  401: JsonRpcErrorBody,
  403: JsonRpcErrorBody,
  404: JsonRpcErrorBody,
  421: JsonRpcErrorBody,
  503: JsonRpcErrorBody,
} as const;

export const mcpPost = defineRoute({
  ...base,
  id: 'mcp.post',
  method: 'POST',
  summary:
    'Send MCP JSON-RPC messages (Accept: application/json, text/event-stream); an initialize request without a session starts one (Mcp-Session-Id in the answer)',
  headers: OptionalSessionHeader,
  body: z.union([JsonRpcMessage, z.array(JsonRpcMessage)]),
  responses: {
    200: JsonRpcMessage,
    202: null,
    400: JsonRpcErrorBody,
    ...refusals,
    406: JsonRpcErrorBody,
    413: JsonRpcErrorBody,
    415: JsonRpcErrorBody,
    429: JsonRpcErrorBody,
  },
  stream,
});

export const mcpGet = defineRoute({
  ...base,
  id: 'mcp.stream',
  method: 'GET',
  summary: "Open the session's stream of server-initiated MCP messages (Accept: text/event-stream)",
  headers: SessionHeader,
  responses: {
    200: { contentType: 'text/event-stream', description: 'server-initiated JSON-RPC messages' },
    400: JsonRpcErrorBody,
    ...refusals,
    405: JsonRpcErrorBody,
    406: JsonRpcErrorBody,
    409: JsonRpcErrorBody,
  },
  stream: { ...stream, description: 'server-initiated JSON-RPC messages' },
});

export const mcpDelete = defineRoute({
  ...base,
  id: 'mcp.delete',
  method: 'DELETE',
  summary: 'End an MCP session',
  headers: SessionHeader,
  responses: { 200: null, 400: JsonRpcErrorBody, ...refusals },
});

export const mcpRoutes = [mcpPost, mcpGet, mcpDelete];
