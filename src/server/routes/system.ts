import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { healthz, openapi } from '../../contract/system.js';
import { ROUTES } from '../../contract/index.js';
import { buildOpenApi } from '../../contract/openapi.js';
import { registerRoute } from '../http/register.js';

export function systemRoutes(app: FastifyInstance, ctx: AppContext): void {
  const started = Date.now();
  let document: unknown;
  registerRoute(app, ctx, healthz, () => ({ status: 'ok' as const, version: ctx.config.version, uptime_s: (Date.now() - started) / 1000 }));
  registerRoute(app, ctx, openapi, () => (document ??= buildOpenApi(ROUTES, { version: ctx.config.version, serverUrl: ctx.baseUrl })));
}
