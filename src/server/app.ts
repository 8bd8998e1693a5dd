import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ErrorFamily } from '../contract/route.js';
import { surfaceOf } from '../contract/index.js';
import type { AppContext } from './context.js';
import { HttpError, RequestValidationError } from './errors.js';
import { shapeError } from './http/error-shape.js';
import { isStoreUnavailable, outageError } from './http/outage.js';
import { clientErrorHandler, frameworkErrorHandler, rememberRequestId } from './http/client-errors.js';
import { authenticate } from './auth/authenticate.js';
import { credentialsOf } from './http/register.js';
import { randomBytes } from 'node:crypto';
import type { ServerOptions } from 'node:http';
import { systemRoutes } from './routes/system.js';
import { imageAuthRoutes } from './routes/image-auth.js';
import { imageAdminRoutes } from './routes/image-admin.js';
import { imageModelRoutes } from './routes/image-models.js';
import { modelApiRoutes } from './routes/model-api.js';
import { adminModelRoutes } from './routes/admin-models.js';
import { livedocRoutes } from './routes/livedocs.js';
import { landingPageRoutes } from './routes/landing-pages.js';
import { chatRoutes } from './routes/chat.js';
import { conversationRoutes } from './routes/conversations.js';
import { imageProjectRoutes } from './routes/image-projects.js';
import { imageTaskRoutes } from './routes/image-tasks.js';
import { socialRoutes } from './routes/social.js';
import { betaSeoRoutes } from './routes/beta-seo.js';
import { betaFinancialRoutes } from './routes/beta-financial.js';
import { betaTrafficRoutes } from './routes/beta-traffic.js';
import { betaReviewRoutes } from './routes/beta-reviews.js';
import { betaAppDataRoutes } from './routes/beta-app-data.js';
import { keepConnectionForRefusedBody } from './http/refused-body.js';
import { installResponseJournal } from './http/response-journal.js';
import { installJsonBodyParser } from './http/json-body.js';
import { webRoutes } from './routes/web.js';
import { subtitleRoutes } from './routes/subtitles.js';
import { scrapeRoutes } from './routes/scrape.js';
import { docTaskRoutes } from './routes/doc-tasks.js';
import { pageRoutes } from './routes/pages.js';
import { mindmapRoutes } from './routes/mindmap.js';
import { slideRoutes } from './routes/slides.js';
import { auditRoutes } from './routes/audit.js';
import { installRequestLog, noteAuth } from './logs/capture.js';
import { consoleRoutes } from './console/routes.js';
import { answerMethodNotAllowed } from './http/method-not-allowed.js';
import { installDrainGate } from './http/drain-gate.js';
import { installHttpMetrics } from './metrics/http-metrics.js';
import { mcpRoutes } from './routes/mcp.js';
import { ownUsageRoutes } from './routes/own-usage.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    family?: ErrorFamily;
    validationStatus?: number;
    validationCode?: string;
    /** What the route's body is (the contract's bodyType; JSON when unset), for a 415's message. */
    bodyType?: 'json' | 'multipart' | 'json-or-multipart';
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Request ids name a request in logs and errors; they are not secrets, only unique: 64 random bits
// per process and a counter (32 hex digits, like the UUID they replace, for a fraction of the work).
const processTag = randomBytes(8).toString('hex');
let requestCount = 0;
const nextRequestId = () => `req_${processTag}${(++requestCount).toString(16).padStart(16, '0')}`;

/** One plugin per surface; each later surface adds its line here. */
const SURFACES: Array<(app: FastifyInstance, ctx: AppContext) => void> = [
  systemRoutes,
  imageAuthRoutes,
  imageAdminRoutes,
  imageModelRoutes,
  modelApiRoutes,
  adminModelRoutes,
  livedocRoutes,
  chatRoutes,
  conversationRoutes,
  imageProjectRoutes,
  imageTaskRoutes,
  socialRoutes,
  betaSeoRoutes,
  betaFinancialRoutes,
  betaTrafficRoutes,
  betaReviewRoutes,
  betaAppDataRoutes,
  webRoutes,
  subtitleRoutes,
  scrapeRoutes,
  docTaskRoutes,
  pageRoutes,
  mindmapRoutes,
  slideRoutes,
  landingPageRoutes,
  auditRoutes,
  ownUsageRoutes,
];

function familyOf(request: { routeOptions: { config?: { family?: ErrorFamily } }; url: string }): ErrorFamily {
  return request.routeOptions.config?.family ?? surfaceOf(request.url.split('?')[0])?.family ?? 'image';
}

/** Fastify's own failures (bad JSON, wrong content type, body too large) in our terms. */
/** The media types a route's body may have, as a 415 names them. */
const TAKES = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  'json-or-multipart': 'application/json or multipart/form-data',
} as const;

function fromFastifyError(
  err: { statusCode?: number; code?: string; message: string },
  request: {
    headers: { 'content-type'?: string };
    routeOptions: { bodyLimit?: number; config?: { bodyType?: keyof typeof TAKES } };
  },
): unknown {
  if (
    err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    err instanceof SyntaxError
  ) {
    return new RequestValidationError(
      [{ loc: ['body'], msg: `Invalid JSON: ${err.message}`, type: 'json_invalid' }],
      false,
    );
  }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && request.routeOptions.bodyLimit) {
    const mib = +(request.routeOptions.bodyLimit / 1024 / 1024).toFixed(1);
    return new HttpError('PAYLOAD_TOO_LARGE', `Request body is too large: this endpoint reads at most ${mib} MiB`, {
      status: 413,
    });
  }
  if (err.statusCode === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE')
    return new HttpError('PAYLOAD_TOO_LARGE', err.message, { status: 413 });
  if (err.statusCode === 415) {
    // Fastify says only "Unsupported Media Type"; the caller learns what was sent and what is taken.
    const sent = request.headers['content-type']?.split(';')[0].trim() || 'a body without a content type';
    const takes = TAKES[request.routeOptions.config?.bodyType ?? 'json'];
    return new HttpError('INVALID_PARAMETER', `Unsupported Media Type: this endpoint takes ${takes}, not ${sent}`, {
      status: 415,
    });
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    return new HttpError('INVALID_PARAMETER', err.message, { status: err.statusCode });
  if (isStoreUnavailable(err)) return outageError();
  return err;
}

/** How long a caller may take to send a request; none bounds the response (streams stay open). */
export interface HttpTimeouts {
  /** The request line and headers (Node's headersTimeout); at most requestSeconds. */
  headersSeconds: number;
  /** The whole request, body included (Node's requestTimeout): a body trickled in is cut here. */
  requestSeconds: number;
  /** An idle kept-alive connection between requests. */
  keepAliveSeconds: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersSeconds: 60, requestSeconds: 300, keepAliveSeconds: 72 };

/** Path parameters (ids) longer than this are refused with 414 before routing. */
const MAX_PARAM_LENGTH = 100;

function serverTimeouts(t: HttpTimeouts): { requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  const requestMs = t.requestSeconds * 1000;
  const headersMs = Math.min(t.headersSeconds, t.requestSeconds) * 1000;
  return {
    requestTimeout: requestMs,
    keepAliveTimeout: t.keepAliveSeconds * 1000,
    // Node checks the timers every connectionsCheckingInterval (30 s by default): a quarter of the
    // shortest timeout keeps a cut within a quarter past it.
    http: {
      requestTimeout: requestMs,
      headersTimeout: headersMs,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, headersMs / 4)),
    },
  };
}

export function buildApp(
  ctx: AppContext,
  options: {
    logger?: FastifyServerOptions['logger'];
    timeouts?: HttpTimeouts;
    trustProxy?: FastifyServerOptions['trustProxy'];
  } = {},
): FastifyInstance {
  const timeouts = options.timeouts ?? DEFAULT_HTTP_TIMEOUTS;
  const app = Fastify({
    logger: options.logger ?? false,
    // request.protocol and request.host read X-Forwarded-* only from these addresses (http/link-base.ts).
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : nextRequestId();
    },
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: false,
    // Fastify's own refusal answers `{"error":"Service Unavailable"}`; http/drain-gate.ts refuses
    // in the surface's shape instead.
    return503OnClosing: false,
    ...serverTimeouts(timeouts),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Node's and the router's own refusals (408, 431, 414, a bad URL) in the surface's error shape.
    clientErrorHandler: clientErrorHandler(nextRequestId, {
      headers: Math.min(timeouts.headersSeconds, timeouts.requestSeconds),
      request: timeouts.requestSeconds,
    }),
    frameworkErrors: frameworkErrorHandler(MAX_PARAM_LENGTH),
  });

  // A callback hook, not an async one: it runs on every request, and a promise per request costs.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    rememberRequestId(request.raw, request.id);
    // The Anthropic client reads its request id from request-id (its errors and `_request_id`).
    if (request.url.startsWith('/api/v1/')) reply.header('request-id', request.id);
    done();
  });
  // Read by http/audit-actor.ts: every audit entry names the instance it was made through.
  app.decorate('facetInstanceId', { getter: () => ctx.config.instanceId });
  installDrainGate(app, ctx.readiness, familyOf, () => ctx.metrics.httpRefused.inc({ reason: 'draining' }));
  if (ctx.config.metrics !== 'off') installHttpMetrics(app, ctx.metrics);
  // Every answered request, as a line of the live request log (`facet logs tail`).
  installRequestLog(app, ctx.requestLog);
  installJsonBodyParser(app);
  // Tests only: every response to a journal the e2e suite checks against /openapi.json.
  installResponseJournal(app);

  app.setErrorHandler((err, request, reply) => {
    const e =
      err instanceof HttpError || err instanceof RequestValidationError
        ? err
        : fromFastifyError(err as Error & { statusCode?: number }, request);
    const shaped = shapeError(
      familyOf(request),
      e,
      request.id,
      request.routeOptions.config?.validationStatus,
      request.routeOptions.config?.validationCode,
    );
    if (shaped.status >= 500 && !(err instanceof HttpError && err.expected))
      request.log.error({ err }, 'request failed');
    if (isStoreUnavailable(err)) ctx.metrics.databaseUnavailable.inc();
    keepConnectionForRefusedBody(request, reply, shaped.status);
    reply.code(shaped.status).headers(shaped.headers).send(shaped.body);
  });

  // Unknown paths inside a surface still authenticate first, so a caller without credentials learns
  // that, and an authenticated one gets a 404 in the surface's own envelope.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    const surface = surfaceOf(path);
    // Noted for the live request log: a user's tail shows their requests to unknown paths too.
    if (surface) noteAuth(request, await authenticate(ctx, surface.auth, credentialsOf(request)));
    const shaped = shapeError(
      surface?.family ?? 'image',
      new HttpError('NOT_FOUND', `No endpoint ${request.method} ${path}`),
      request.id,
    );
    reply.code(shaped.status).send(shaped.body);
  });

  answerMethodNotAllowed(app);
  for (const surface of SURFACES) surface(app, ctx);
  // The console is HTML for people, not an API surface: no contract routes, off with --no-console.
  if (ctx.config.console) consoleRoutes(app, ctx);
  // Agents' tools over MCP (src/mcp), off with --no-mcp.
  if (ctx.config.mcp.enabled) mcpRoutes(app, ctx);
  return app;
}
