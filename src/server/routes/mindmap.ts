import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/mindmap.js';
import { pageHeaders } from '../http/html-page.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/mindmap.service.js';

export function mindmapRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.createMindmap, ({ auth, body }) => service.createMindmap(ctx, auth, body));
  registerRoute(app, ctx, c.mindmapPage, async ({ params, query, reply }) => {
    const page = await service.mindmapPage(ctx, params.resource_id, query);
    // The signature is in the URL: the page is private to whoever holds it, and never cached by others.
    // The SVG gets the page's CSP too: opened on its own, an SVG is a document that could run script.
    return pageHeaders(reply)
      .header('content-type', page.type === 'image/png' ? page.type : `${page.type}; charset=utf-8`)
      .send(page.body);
  });
}
