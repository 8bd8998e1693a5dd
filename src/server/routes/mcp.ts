import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { MCP_PATH, MCP_SESSION_HEADER } from '../../contract/mcp.js';
import { createFacetMcpServer, mcpApi, type RequestExtra } from '../../mcp/index.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { authenticate } from '../auth/authenticate.js';
import { credentialsOf } from '../http/register.js';
import { noteAuth } from '../logs/capture.js';
import { McpSessions, type McpSession } from '../mcp/sessions.js';
import { callerOf, inProcessRequest, type Caller } from '../mcp/in-process.js';
import { assertMcpOrigin } from '../mcp/origins.js';

/** The largest JSON-RPC body read (a tool call's arguments: a note's text, up to 100 URLs). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const isInitialize = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some(
    (m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize',
  );

/**
 * /mcp on `facet serve`: the tool table of src/mcp over Streamable HTTP. Every request is
 * authenticated as a /v2 call is (a frozen or deleted key is refused at once, mid-session too), and
 * the tools act through an in-process client bound to the key and address of the request that
 * carries the call, so its limits, credits, metering, request log and audit are those of the HTTP
 * calls the tools make.
 */
export function mcpRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sessions = new McpSessions(ctx.config.mcp.maxSessionsPerKey, ctx.config.mcp.idleSeconds * 1000);
  const sweep = setInterval(() => void sessions.sweep(), Math.min(60_000, (ctx.config.mcp.idleSeconds * 1000) / 2));
  sweep.unref();
  // Open streams would hold a closing server; their clients reconnect to another instance or later.
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    await sessions.endAll();
  });

  const apiFor = async (extra: RequestExtra) => {
    const info = extra.authInfo as (AuthInfo & { extra: { caller: Caller } }) | undefined;
    if (!info) throw new Error('an MCP request without the credentials it came with');
    return mcpApi({
      baseUrl: 'http://facet.in-process',
      credentials: { apiKey: info.token },
      userAgent: `facet-mcp/${ctx.config.version}`,
      request: inProcessRequest(app, info.extra.caller),
    });
  };

  async function open(keyId: string): Promise<McpSession> {
    await sessions.admit(keyId);
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const server = createFacetMcpServer({ version: ctx.config.version, apiFor });
    const session: McpSession = { id, keyId, transport, server, lastSeen: Date.now(), active: 0 };
    server.server.onclose = () => sessions.remove(id);
    await server.connect(transport);
    sessions.add(session);
    return session;
  }

  const allowedOrigins = new Set(ctx.config.mcp.allowedOrigins);

  async function serve(request: FastifyRequest, reply: import('fastify').FastifyReply): Promise<void> {
    // Pages of other origins are kept out before anything else is said (DNS rebinding).
    assertMcpOrigin(request, ctx.baseUrl, allowedOrigins);
    const auth = await authenticate(ctx, 'bearer-key', credentialsOf(request));
    if (!auth) throw new HttpError('MISSING_AUTHORIZATION', 'an API key is required');
    noteAuth(request, auth);
    const keyId = auth.apiKey?.id ?? `user:${auth.user.id}`;
    const given = request.headers[MCP_SESSION_HEADER];
    const sessionId = typeof given === 'string' && given ? given : undefined;
    let session: McpSession | undefined;
    if (sessionId) {
      session = sessions.find(sessionId, keyId);
      if (!session)
        throw new HttpError(
          'MCP_SESSION_NOT_FOUND',
          `no MCP session ${sessionId} for this key (ended, expired, or another key's); start a new one with an initialize request`,
          { status: 404 },
        );
    } else if (request.method === 'POST' && isInitialize(request.body)) {
      session = await open(keyId);
    } else {
      throw new HttpError(
        'MCP_SESSION_REQUIRED',
        `the ${MCP_SESSION_HEADER} header is required: a session starts with an initialize request (POST ${MCP_PATH})`,
        { status: 400 },
      );
    }
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const withAuth = request.raw as typeof request.raw & { auth?: AuthInfo };
    withAuth.auth = { token: bearer, clientId: keyId, scopes: [], extra: { caller: callerOf(request.raw) } };
    reply.hijack();
    session.active++;
    session.lastSeen = Date.now();
    try {
      await session.transport.handleRequest(withAuth, reply.raw, request.body);
    } finally {
      session.active--;
      session.lastSeen = Date.now();
      // An initialize the transport refused leaves a session that never started.
      if (!session.transport.sessionId) await sessions.end(session);
    }
  }

  app.route({
    method: ['POST', 'GET'],
    url: MCP_PATH,
    bodyLimit: MAX_BODY_BYTES,
    config: { family: 'mcp' },
    handler: serve,
  });
  // DELETE ends a session whatever body or content type comes with it (the Python SDK sends
  // `Content-Type: application/json` and no body): in a scope of its own, any body is read and dropped.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    scope.route({
      method: 'DELETE',
      url: MCP_PATH,
      bodyLimit: MAX_BODY_BYTES,
      config: { family: 'mcp' },
      handler: serve,
    });
  });
}
