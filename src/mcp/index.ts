/** facet for agents: one table of MCP tools and resources over the typed client (ARCHITECTURE "Agents: MCP"). */
export { createFacetMcpServer } from './server.js';
export {
  mcpApi,
  MCP_SURFACES,
  type ApiFor,
  type McpApi,
  type RequestExtra,
  type TransportOptions,
  type HttpRequestFn,
} from './api.js';
export { TOOLS } from './tools/index.js';
export { RESOURCE_TEMPLATES } from './resources.js';
