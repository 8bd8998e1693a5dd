import { createApi, type ApiOf, type Transport } from '../client/index.js';
import type { TransportOptions } from '../client/transport.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** The surfaces the MCP tools and resources call: the client loads only these contracts. */
export const MCP_SURFACES = [
  'web',
  'scrape',
  'livedocs',
  'conversations',
  'social',
  'beta',
  'slides',
  'docTasks',
  'landingPages',
  'mindmap',
  'tasks',
  'modelApi',
  'keys',
  'usage',
] as const;
export type McpApi = ApiOf<(typeof MCP_SURFACES)[number]>;
export type { TransportOptions };
export type { HttpRequestFn, HttpRequestOptions, HttpResponse } from '../client/http.js';

/**
 * The client the tools act through. No automatic retry: a 429 reaches the agent at once with its
 * retry time, rather than holding the tool call for up to 30 s of backoff.
 */
export function mcpApi(options: TransportOptions | Transport): Promise<McpApi> {
  return createApi('send' in options ? options : { retries: 0, ...options }, MCP_SURFACES);
}

/** What the MCP SDK hands a request's handler. */
export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
/** The client a request acts through: one for the process on stdio, the caller's key's at /mcp. */
export type ApiFor = (extra: RequestExtra) => Promise<McpApi>;
