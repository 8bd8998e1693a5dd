import type { FastifyInstance } from 'fastify';
import type { ErrorFamily } from '../../contract/route.js';
import { surfaceOf } from '../../contract/index.js';
import { HttpError } from '../errors.js';
import { shapeError } from './error-shape.js';

interface KnownRoute {
  pattern: RegExp;
  method: string;
  family?: ErrorFamily;
}

/** A router path (`/v2/livedocs/:id`, `/assets/*`) as a pattern over concrete paths. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((s) => (s.startsWith(':') ? '[^/]+' : s === '*' ? '.*' : s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Answers 405 with `Allow` when a path exists but not under the request's method (TRACE, PUT on a
 * POST route), in the error shape of the surface the path belongs to. It runs before
 * authentication and before the body is read: a method the path does not have is a fact about the
 * path, not about the caller, and no body sent to it means anything. Unknown paths stay 404.
 * Call before any route is registered: it learns the routes as they are added.
 */
export function answerMethodNotAllowed(app: FastifyInstance): void {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const family = route.config?.family;
    for (const method of methods) routes.push({ pattern: patternOf(route.url), method, family });
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const path = request.url.split('?')[0];
    const matching = routes.filter((r) => r.pattern.test(path));
    if (matching.length === 0) return done();
    const methods = new Set(matching.map((r) => r.method));
    // Fastify answers HEAD wherever GET is routed (exposeHeadRoutes), whether or not it was listed.
    if (methods.has('GET')) methods.add('HEAD');
    const allow = [...methods].sort().join(', ');
    const family = matching.find((r) => r.family)?.family ?? surfaceOf(path)?.family ?? 'image';
    const shaped = shapeError(
      family,
      new HttpError('METHOD_NOT_ALLOWED', `${request.method} is not a method of ${path}; it takes ${allow}`, {
        headers: { allow },
      }),
      request.id,
    );
    reply.code(shaped.status).headers(shaped.headers).send(shaped.body);
  });
}
