import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from './server-metrics.js';

/** The route label of a request no route matched: raw URLs would make a label value per path. */
export const UNMATCHED_ROUTE = 'unmatched';

const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * Counts every request by its route template (Fastify's `routeOptions.url`, such as
 * `/v2/livedocs/:id`), method and status class, with its duration up to the end of its answer.
 * The end is the response's `close`, which also comes for event streams written on the raw socket
 * and for callers that leave: a request that got no status line counts as class `none`.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  // A callback hook: it runs on every request, and a promise per request costs.
  app.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    metrics.httpInFlight.inc();
    reply.raw.once('close', () => {
      metrics.httpInFlight.dec();
      const res = reply.raw;
      const status = res.headersSent ? (CLASSES[Math.floor(res.statusCode / 100) - 1] ?? 'none') : 'none';
      const labels = {
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
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
