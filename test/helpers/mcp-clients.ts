import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, type Platform } from './platform.js';

export type TransportKind = 'stdio' | 'http';

export interface Connected {
  client: Client;
  /** The HTTP transport (for its session id), when that is the kind. */
  http?: StreamableHTTPClientTransport;
  /** What `facet mcp` wrote on stderr (stdio). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The MCP SDK's own Client connected to a platform: over stdio to `node bin/facet.js mcp` (env
 * pointing at the platform, the key as FACET_API_KEY), or over Streamable HTTP to its /mcp.
 */
export async function connect(p: Platform, kind: TransportKind, apiKey: string): Promise<Connected> {
  const client = new Client({ name: 'facet-test', version: '1.0.0' });
  if (kind === 'http') {
    const http = new StreamableHTTPClientTransport(new URL(`${p.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    });
    await client.connect(http);
    return { client, http, stderr: () => '', close: () => client.close() };
  }
  const stdio = new StdioClientTransport({
    command: 'node',
    args: [BIN, 'mcp'],
    env: {
      ...(process.env as Record<string, string>),
      FACET_CONFIG_DIR: p.configDir,
      FACET_API_KEY: apiKey,
      FACET_BASE_URL: p.url,
      CI: 'true',
      NO_COLOR: '1',
    },
    stderr: 'pipe',
  });
  let err = '';
  stdio.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  await client.connect(stdio);
  return { client, stderr: () => err, close: () => client.close() };
}

/** The text of a tool result's first content block. */
export const textOf = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

/** A user of the platform with a key of their own: created offline, keyed with an access token. */
export async function makeUser(
  p: Platform,
  name: string,
  options: { credits?: number } = {},
): Promise<{ id: string; key: string; keyId: string }> {
  const run = async (args: string[]) => {
    const r = await p.cli(args);
    if (r.exitCode !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const credits = options.credits !== undefined ? ['--credits', String(options.credits)] : [];
  const id = await run(['serve', 'users', 'create', name, ...credits, '--data-dir', p.dataDir]);
  const token = await run(['serve', 'token', name, '--data-dir', p.dataDir]);
  const res = await p.fetch('/auth/api-keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `${name}-mcp` }),
  });
  const key = (await res.json()) as { key: string; id: string };
  return { id, key: key.key, keyId: key.id };
}
