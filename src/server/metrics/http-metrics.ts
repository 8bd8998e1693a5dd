import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from './server-metrics.js';

/** The route label of a request no route matched: raw URLs would make a label value per path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The readiness probe: counted apart (facet_readiness_probes_total), its 503 being no failure. */
export const READINESS_ROUTE = '/readyz';

const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/**
 * The classes every route answers, whose series start at 0: success, refusal, failure. A redirect
 * (3xx, a few download routes) and Fastify's HEAD twin of each GET route start at their first
 * answer, which halves what every scrape carries.
 */
const ZEROED_CLASSES = ['2xx', '4xx', '5xx'];

/**
 * Counts every request by its route template (Fastify's `routeOptions.url`, such as
 * `/v2/livedocs/:id`), method and status class, with its duration up to the end of its answer.
 * The end is the response's `close`, which also comes for event streams written on the raw socket
 * and for callers that leave: a request that got no status line counts as class `none`.
 * Install before the routes: each route's series are made at 0 as it is registered.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  const zero = (route: string, method: string) => {
    for (const status_class of ZEROED_CLASSES) metrics.httpRequests.inc({ route, method, status_class }, 0);
  };
  app.addHook('onRoute', (route) => {
    if (route.url === READINESS_ROUTE) return;
    for (const method of [route.method].flat()) if (METHODS.has(method) && method !== 'HEAD') zero(route.url, method);
  });
  for (const method of METHODS) if (method !== 'HEAD') zero(UNMATCHED_ROUTE, method);
  // A callback hook: it runs on every request, and a promise per request costs.
  app.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    metrics.httpInFlight.inc();
    reply.raw.once('close', () => {
      metrics.httpInFlight.dec();
      const res = reply.raw;
      const status = res.headersSent ? (CLASSES[Math.floor(res.statusCode / 100) - 1] ?? 'none') : 'none';
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      if (route === READINESS_ROUTE) {
        metrics.readinessProbes.inc({ result: status === '2xx' ? 'ready' : 'not_ready' });
        return;
      }
      const labels = {
        route,
        method: METHODS.has(request.method) ? request.method : 'other',
        status_class: status,
      };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    done();
  });
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
