import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { CliError, EXIT } from '../exit-codes.js';

const EXAMPLES = `
Nothing but MCP messages is written to stdout; the start line and --debug traces go to stderr.
The profile's API key (or FACET_API_KEY) is the one the tools act with.

Client configuration (Claude Desktop, Cursor: mcpServers; VS Code: servers):
  { "mcpServers": { "facet": { "command": "facet", "args": ["mcp"] } } }
  { "mcpServers": { "facet": { "command": "facet", "args": ["mcp", "--profile", "work"] } } }

Examples:
  $ facet mcp                                   # the current profile's platform and key
  $ FACET_API_KEY=sk-... facet --base-url https://facet.example.com mcp
  $ npx @modelcontextprotocol/inspector --cli facet mcp --method tools/list

facet serve offers the same tools over Streamable HTTP at /mcp (Authorization: Bearer <API key>).`;

export function register(program: Command, deps: Deps): void {
  program
    .command('mcp')
    .description('Serve facet to AI agents over MCP on stdio (Claude Desktop, Cursor, VS Code)')
    .addHelpText('after', EXAMPLES)
    .action(() => run(deps));
}

/** Serves the tool table on stdin/stdout until the client closes stdin. */
export async function run(deps: Deps): Promise<void> {
  const s = await deps.settings();
  if (!s.apiKey)
    throw new CliError(
      `facet mcp acts with an API key, and profile "${s.profileName}" has none`,
      EXIT.auth,
      'run `facet login`, set FACET_API_KEY, or pick a profile with --profile',
    );
  const [{ createFacetMcpServer, mcpApi }, { StdioServerTransport }] = await Promise.all([
    import('../../mcp/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const stderr = deps.streams.stderr;
  const api = await mcpApi({
    baseUrl: s.baseUrl,
    imageBaseUrl: s.imageBaseUrl,
    credentials: { apiKey: s.apiKey, accessToken: s.accessToken },
    userAgent: `facet-mcp/${deps.version}`,
    timeoutMs: Number(deps.env.FACET_TIMEOUT_MS) || 120_000,
    debug: deps.globals().debug ? (line: string) => stderr.write(`[debug] ${line}\n`) : undefined,
  });
  const server = createFacetMcpServer({ version: deps.version, apiFor: async () => api });
  const stdin = deps.streams.stdin as NodeJS.ReadableStream;
  const transport = new StdioServerTransport(stdin as never, deps.streams.stdout as never);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  // The client ends the session by closing our stdin.
  stdin.once('end', () => void server.close());
  await server.connect(transport);
  stderr.write(`facet mcp: serving ${s.baseUrl} (profile ${s.profileName}) on stdio\n`);
  await closed;
}
