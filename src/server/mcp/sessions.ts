import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HttpError } from '../errors.js';

export interface McpSession {
  id: string;
  keyId: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** Requests being answered (an open GET stream counts while it lasts). */
  active: number;
}

/**
 * The MCP sessions of this instance, each bound to the API key that opened it: another key's
 * request names no session it can use. A key holds at most `maxPerKey`; opening one more ends that
 * key's least recently used idle session (its client gets 404 and starts again, as the spec says),
 * and when all are busy it is refused with 429. Sessions idle for `idleMs` are ended by sweep().
 */
export class McpSessions {
  private readonly byId = new Map<string, McpSession>();

  constructor(
    private readonly maxPerKey: number,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  find(id: string, keyId: string): McpSession | undefined {
    const s = this.byId.get(id);
    return s && s.keyId === keyId ? s : undefined;
  }

  /** Makes room for one more session of the key, or refuses. */
  async admit(keyId: string): Promise<void> {
    const mine = [...this.byId.values()].filter((s) => s.keyId === keyId);
    if (mine.length < this.maxPerKey) return;
    const idle = mine.filter((s) => s.active === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (!idle)
      throw new HttpError(
        'MCP_TOO_MANY_SESSIONS',
        `this key has ${mine.length} MCP sessions answering requests (at most ${this.maxPerKey}); end one (DELETE /mcp) or retry shortly`,
        { status: 429, headers: { 'retry-after': '5' } },
      );
    await this.end(idle);
  }

  add(session: McpSession): void {
    this.byId.set(session.id, session);
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  async end(session: McpSession): Promise<void> {
    this.byId.delete(session.id);
    await session.server.close().catch(() => undefined);
  }

  /** Ends the sessions idle longer than the limit; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.idleMs;
    const stale = [...this.byId.values()].filter((s) => s.active === 0 && s.lastSeen < cutoff);
    await Promise.all(stale.map((s) => this.end(s)));
    return stale.length;
  }

  async endAll(): Promise<void> {
    await Promise.all([...this.byId.values()].map((s) => this.end(s)));
  }
}
