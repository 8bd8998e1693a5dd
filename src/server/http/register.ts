import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parse as parseCookie } from 'cookie';
import { bodyLimitOf, refusesUnknownQuery, type RouteDef } from '../../contract/route.js';
import type { AppContext } from '../context.js';
import { asCaller } from '../engines/workers/caller.js';
import { authenticate, SESSION_COOKIE, type AuthContext, type Credentials } from '../auth/authenticate.js';
import { validatePart } from './validate.js';
import { JsonText } from '../json-text.js';
import { noteAuth } from '../logs/capture.js';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteInput<R extends RouteDef> {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']>;
  headers: Infer<R['headers']>;
  /** Null only on routes whose auth group is 'none'. */
  auth: R['auth'] extends 'none' ? null : AuthContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RouteHandler<R extends RouteDef> = (input: RouteInput<R>) => unknown;

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as Promise<unknown> | null)?.then === 'function';

export function credentialsOf(request: FastifyRequest): Credentials {
  const h = request.headers;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const cookies = h.cookie ? parseCookie(h.cookie) : {};
  return {
    authorization: one(h.authorization),
    apiKeyHeader: one(h['x-api-key']),
    adminKeyHeader: one(h['x-admin-key']),
    sessionCookie: cookies[SESSION_COOKIE],
  };
}

/** Only the headers the route declares, so validation never sees (or echoes) credentials. */
function pickHeaders(schema: z.ZodObject, headers: FastifyRequest['headers']): Record<string, unknown> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, headers[name]]));
}

function successStatus(route: RouteDef): number {
  return Number(Object.keys(route.responses).find((s) => s.startsWith('2')) ?? 200);
}

/** Set FACET_VALIDATE_RESPONSES=1 (the test suite does) to check every answer against the contract. */
const checkResponses = process.env.FACET_VALIDATE_RESPONSES === '1';

function checkAnswer(route: RouteDef, schema: z.ZodType, payload: unknown): void {
  const check = schema.safeParse(payload);
  if (!check.success) throw new Error(`response of ${route.id} breaks the contract: ${check.error.message}`);
}

/**
 * Registers one contract route: authenticate by the route's group, validate path, query and body
 * with the contract's schemas, call the handler, and wrap v2 data in its envelope. Errors thrown on
 * the way are shaped by the app's error handler from the route's family.
 */
export function registerRoute<const R extends RouteDef>(
  app: FastifyInstance,
  ctx: AppContext,
  route: R,
  handler: RouteHandler<R>,
): void {
  const status = successStatus(route);
  const bodySchema = route.responses[status];
  const fastifyPath = route.path.replace(/\{(\w+)\}/g, ':$1');
  const querySchema = route.query && refusesUnknownQuery(route) ? route.query.strict() : route.query;

  /** What the handler's result becomes on the wire: the reply itself when the handler already sent it. */
  const answer = (result: unknown, reply: FastifyReply): unknown => {
    if (reply.sent) return reply;
    if (reply.statusCode === 200 && status !== 200) reply.code(status);
    if (bodySchema === null || (result === undefined && status === 204)) return reply.send();
    const enveloped = route.family === 'v2' && route.envelope !== false;
    if (result instanceof JsonText) {
      // Already serialized (a cached page): sent as it is, inside the envelope.
      const body = result.body(enveloped);
      if (checkResponses && bodySchema instanceof z.ZodType)
        checkAnswer(route, bodySchema, JSON.parse(body.toString('utf8')));
      return reply.type('application/json; charset=utf-8').send(body);
    }
    const payload = enveloped ? { status: 'ok', message: null, data: result ?? null } : result;
    if (checkResponses && bodySchema instanceof z.ZodType && reply.statusCode === status) {
      checkAnswer(route, bodySchema, payload);
    }
    return payload;
  };
  const send = (result: unknown, reply: FastifyReply): undefined => {
    const out = answer(result, reply);
    if (out !== reply) reply.send(out);
    return undefined;
  };
  /** Validates the request's parts, runs the handler and sends its answer; a promise only when the handler returns one. */
  const serve = (
    auth: AuthContext | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<undefined> | undefined => {
    noteAuth(request, auth);
    const input = {
      params: route.params ? validatePart('path', route.params, request.params) : undefined,
      query: querySchema ? validatePart('query', querySchema, request.query ?? {}) : undefined,
      body:
        route.body && (route.bodyType ?? 'json') === 'json'
          ? validatePart('body', route.body, request.body)
          : undefined,
      headers: route.headers
        ? validatePart('header', route.headers, pickHeaders(route.headers, request.headers))
        : undefined,
      auth,
      request,
      reply,
    } as RouteInput<R>;
    // The caller's CPU jobs queue under its key (else its user), whichever function submits them.
    const result = auth ? asCaller(auth.apiKey?.id ?? auth.user.id, () => handler(input)) : handler(input);
    return isPromise(result) ? result.then((r) => send(r, reply)) : send(result, reply);
  };

  app.route({
    method: route.method,
    url: fastifyPath,
    config: {
      family: route.family,
      validationStatus: route.validationStatus,
      validationCode: route.validationCode,
      bodyType: route.bodyType,
    },
    ...(bodyLimitOf(route) ? { bodyLimit: bodyLimitOf(route) } : {}),
    // Not an async function: a request whose credentials and answer are already in this process's
    // caches is answered in the same tick, with no promise; anything else goes the asynchronous way.
    handler: (request, reply) => {
      const auth = authenticate(ctx, route.auth, credentialsOf(request));
      return auth instanceof Promise ? auth.then((known) => serve(known, request, reply)) : serve(auth, request, reply);
    },
  });
}
