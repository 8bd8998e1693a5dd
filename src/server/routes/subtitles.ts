import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/subtitles.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/subtitles.service.js';

export function subtitleRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.getSubtitles, ({ query }) => service.getSubtitles(ctx, query));
}
