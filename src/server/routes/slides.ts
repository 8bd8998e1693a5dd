import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/slides.js';
import { registerRoute } from '../http/register.js';
import * as themes from '../services/ppt-themes.service.js';

export function slideRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.listThemes, ({ auth, query }) => themes.listThemes(ctx, auth.user.id, query));
  registerRoute(app, ctx, c.createTheme, ({ auth, body }) => themes.createTheme(ctx, auth.user.id, body));
  registerRoute(app, ctx, c.themePreview, async ({ params, reply }) => {
    const png = await themes.themePreview(ctx, params.theme_id);
    return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=3600').send(png);
  });
}
