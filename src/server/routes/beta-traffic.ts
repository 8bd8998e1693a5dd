import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { landingPages } from '../../contract/beta-traffic.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/beta-traffic.service.js';

export function betaTrafficRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, landingPages, ({ query }) => service.landingPages(ctx, query));
}
