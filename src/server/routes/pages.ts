import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/pages.js';
import { registerRoute } from '../http/register.js';
import { servePage } from '../http/html-page.js';
import { liveDocPage } from '../services/livedoc-page.service.js';
import { liveDocPageHtml } from '../pages/livedoc-page.js';

/** Pages the URLs of API answers open in a browser; each checks its signed link. */
export function pageRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.liveDocPage, ({ params, query, reply }) =>
    servePage(reply, async () => liveDocPageHtml(await liveDocPage(ctx, params.short_id, query))),
  );
}
