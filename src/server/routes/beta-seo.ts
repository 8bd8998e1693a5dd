import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { backlinks, volume, whois } from '../../contract/beta-seo.js';
import { registerRoute } from '../http/register.js';
import { postSeo } from '../services/beta-seo.service.js';

export function betaSeoRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, backlinks, ({ auth, body }) =>
    postSeo(ctx, 'backlinks', backlinks.path, body, auth.apiKey?.id ?? auth.user.id),
  );
  registerRoute(app, ctx, whois, ({ auth, body }) =>
    postSeo(ctx, 'whois', whois.path, body, auth.apiKey?.id ?? auth.user.id),
  );
  registerRoute(app, ctx, volume, ({ auth, body }) =>
    postSeo(ctx, 'volume', volume.path, body, auth.apiKey?.id ?? auth.user.id),
  );
}
