import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/authenticate.js';
import { redactSecrets, redactUrl } from '../http/log-redaction.js';
import type { RequestLog } from './request-log.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made the request, as the route layer authenticated it; read once the answer is sent. */
    facetAuth: AuthContext | null;
  }
}

export function noteAuth(request: FastifyRequest, auth: AuthContext | null): void {
  if (auth) request.facetAuth = auth;
}

/** The tails' own requests are not logged: a tail would otherwise see every tail open and close. */
const TAIL_PATHS = new Set(['/admin/logs/tail', '/auth/logs/tail']);

/** Every answered request becomes a line of the live log: ids only, the path without its query. */
export function installRequestLog(app: FastifyInstance, log: RequestLog): void {
  // Declared, so every request has the property from the start (one shape, no WeakMap per request).
  app.decorateRequest('facetAuth', null);
  app.addHook('onResponse', (request, reply, done) => {
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    if (!TAIL_PATHS.has(path)) {
      const auth = request.facetAuth;
      log.publish({
        time: new Date().toISOString(),
        method: request.method,
        // The stream key in a conversation stream's path is a capability, and a key pasted into a path
        // is one: redacted like the server log.
        path: redactUrl(path).slice(0, 500),
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        key_id: auth?.apiKey?.id ?? null,
        user_id: auth?.user.id ?? null,
        // A caller's own X-Request-Id is kept, unless it is shaped like a credential.
        request_id: redactSecrets(request.id),
        instance: log.instanceId,
      });
    }
    done();
  });
}
