import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../context.js';
import { healthz, metrics, openapi, readyz } from '../../contract/system.js';
import { HttpError } from '../errors.js';
import { ROUTES } from '../../contract/index.js';
import { buildOpenApi } from '../../contract/openapi.js';
import { registerRoute } from '../http/register.js';
import { loopDelayMonitor, type LoopDelay } from '../loop-watch.js';
import { cpuPoolStats } from '../engines/workers/index.js';

/** `GET /healthz`'s answer: also given by the --metrics-port listener (metrics-listener.ts). */
export function healthBody(version: string, startedAt: number, d: LoopDelay) {
  return {
    status: 'ok' as const,
    version,
    uptime_s: (Date.now() - startedAt) / 1000,
    event_loop: { delay_p50_ms: d.p50_ms, delay_p99_ms: d.p99_ms, delay_max_ms: d.max_ms },
    cpu_lanes: cpuPoolStats().map((l) => ({
      lane: l.lane,
      workers: l.capacity,
      running: l.running,
      queued: l.queued,
      wait_p50_ms: l.wait.p50_ms,
      wait_p99_ms: l.wait.p99_ms,
      wait_max_ms: l.wait.max_ms,
    })),
  };
}

export function systemRoutes(app: FastifyInstance, ctx: AppContext): void {
  const started = Date.now();
  const loop = loopDelayMonitor();
  app.addHook('onClose', (_app, done) => {
    loop.stop();
    done();
  });
  registerRoute(app, ctx, healthz, () => healthBody(ctx.config.version, started, loop.delay()));
  registerRoute(app, ctx, readyz, async () => {
    const report = await ctx.readiness.report();
    if (report.ready)
      return {
        status: 'ready' as const,
        checks: { start: 'ok' as const, database: 'ok' as const, files: 'ok' as const },
      };
    const failing = Object.entries(report.checks).filter(([, v]) => v !== 'ok' && v !== 'not checked');
    throw new HttpError('SERVICE_UNAVAILABLE', `not ready: ${failing.map(([k, v]) => `${k} ${v}`).join('; ')}`, {
      status: 503,
      headers: { 'retry-after': '5' },
      // Not ready is what the probe is for: transitions are logged once (server.ts), not every probe.
      expected: true,
    });
  });
  registerRoute(app, ctx, metrics, async ({ reply }) => {
    const where = ctx.config.metrics;
    if (where !== 'main')
      throw new HttpError(
        'NOT_FOUND',
        where === 'off'
          ? 'metrics are turned off on this instance (--no-metrics)'
          : `metrics are served on their own port (--metrics-port ${where.port})`,
      );
    const text = await ctx.metrics.text();
    return reply.type(ctx.metrics.contentType).send(text);
  });
  // One document per link base: behind a trusted proxy each forwarded address names its own server.
  const documents = new LRUCache<string, object>({ max: 16 });
  registerRoute(app, ctx, openapi, () => {
    const base = ctx.baseUrl;
    let document = documents.get(base);
    if (!document) {
      documents.set(base, (document = buildOpenApi(ROUTES, { version: ctx.config.version, serverUrl: base })));
    }
    return document;
  });
}
