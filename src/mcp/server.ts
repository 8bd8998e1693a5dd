import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiFor, RequestExtra } from './api.js';
import { argumentsError, toolError } from './errors.js';
import { registerResources } from './resources.js';
import type { ToolContext, ToolDef } from './tool.js';
import { TOOLS } from './tools/index.js';

const INSTRUCTIONS =
  'facet: read the web (web_extract, web_scrape_batch), keep sources in LiveDocs and get grounded answers from them (livedocs_*), social and business data (social_*, seo_backlinks, financial_statements, reviews_search), and make decks, pages, mindmaps and pictures (slides_create, landing_page_create, mindmap_create, image_task_create). LiveDocs are also resources: facet://livedocs/{id}.';

/** Progress notifications for a call that asked for them (a progressToken); nothing otherwise. */
function progressOf(extra: RequestExtra): ToolContext['progress'] {
  const token = extra._meta?.progressToken;
  if (token === undefined) return async () => undefined;
  return (progress, message, total) =>
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, message, ...(total !== undefined ? { total } : {}) },
      })
      .catch(() => undefined);
}

async function callTool(tool: ToolDef, args: unknown, extra: RequestExtra, apiFor: ApiFor): Promise<CallToolResult> {
  try {
    const out = await tool.run(args as never, {
      api: await apiFor(extra),
      signal: extra.signal,
      progress: progressOf(extra),
    });
    return {
      content: [
        { type: 'text', text: out.text ?? JSON.stringify(out.structured, null, 2) },
        ...(out.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType })),
      ],
      structuredContent: out.structured,
    };
  } catch (err) {
    return toolError(err);
  }
}

/**
 * The MCP server over facet: the tool table and the LiveDoc resources, every call made through the
 * typed client `apiFor` gives. The transport (stdio or Streamable HTTP) is the caller's choice.
 */
export function createFacetMcpServer(options: { version: string; apiFor: ApiFor }): McpServer {
  const server = new McpServer({ name: 'facet', version: options.version }, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      (args: unknown, extra: RequestExtra) => callTool(tool, args, extra, options.apiFor),
    );
  }
  // tools/call on the low-level server, replacing McpServer's own: arguments the input schema
  // refuses come back as a tool error in the platform's form (README), not the SDK's bare -32602
  // text; the listing stays McpServer's.
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (!tool)
      return argumentsError(name, args, [
        { path: ['name'], code: 'unknown_tool', message: `no tool ${name}; tools/list names them` },
      ]);
    const parsed = await tool.input.safeParseAsync(args ?? {});
    if (!parsed.success) return argumentsError(name, args, parsed.error.issues);
    const result = await callTool(tool, parsed.data, extra, options.apiFor);
    // As McpServer did: a result its own output schema refuses is a failure, not an answer.
    if (!result.isError && !tool.output.safeParse(result.structuredContent).success)
      return toolError(new Error(`${name} gave a result its output schema does not describe`));
    return result;
  });
  registerResources(server, options.apiFor);
  return server;
}
