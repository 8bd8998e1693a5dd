import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/web.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/web-extract.service.js';

export function webRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.webExtract, ({ auth, body }) =>
    service.extract(ctx, body, auth.apiKey?.id ?? auth.user.id),
  );
}
