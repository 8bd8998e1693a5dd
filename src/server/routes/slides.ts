import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/slides.js';
import path from 'node:path';
import { registerRoute } from '../http/register.js';
import { actorOf } from '../http/audit-actor.js';
import { recordAudit } from '../services/audit.service.js';
import { readUpload } from '../http/multipart.js';
import { servePage } from '../http/html-page.js';
import * as themes from '../services/ppt-themes.service.js';
import { createPpt } from '../services/slides.service.js';
import * as viewer from '../services/slides-viewer.service.js';
import { slidesPageHtml } from '../pages/slides-page.js';
import { withMultipart } from './multipart-scope.js';

export function slideRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.listThemes, ({ auth, query }) => themes.listThemes(ctx, auth.user.id, query));
  registerRoute(app, ctx, c.createTheme, ({ auth, body }) => themes.createTheme(ctx, auth.user.id, body));
  registerRoute(app, ctx, c.deleteTheme, async ({ auth, params, request }) => {
    const deleted = await themes.deleteTheme(ctx, auth.user.id, params.theme_id);
    await recordAudit(ctx, actorOf(request, auth), {
      action: 'theme.deleted',
      targetType: 'theme',
      targetId: params.theme_id,
      subjectUserId: auth.user.id,
      after: { deleted: true },
    });
    return deleted;
  });
  // A template file (multipart, the upload limit): the one route in a multipart scope.
  withMultipart(app, ctx, (scope) => {
    registerRoute(scope, ctx, c.importTheme, async ({ auth, request }) => {
      const up = await readUpload(request, c.ImportThemeForm, path.join(ctx.config.filesDir, 'tmp'));
      const theme = await themes.importTheme(ctx, auth.user.id, up, up.fields.title);
      await recordAudit(ctx, actorOf(request, auth), {
        action: 'theme.imported',
        targetType: 'theme',
        targetId: theme.id,
        subjectUserId: auth.user.id,
        after: { title: theme.title },
      });
      return theme;
    });
  });
  registerRoute(app, ctx, c.createPpt, ({ auth, body }) => createPpt(ctx, auth, body));
  registerRoute(app, ctx, c.themePreview, async ({ params, query, reply }) => {
    const png = await themes.themePreview(ctx, params.theme_id, query);
    // A custom theme's picture is its owner's: no shared cache keeps it.
    const shared = query.sig === undefined;
    return reply
      .header('content-type', 'image/png')
      .header('cache-control', `${shared ? 'public' : 'private'}, max-age=3600`)
      .send(png);
  });

  registerRoute(app, ctx, c.slideViewer, ({ params, query, reply }) =>
    servePage(reply, async () => {
      const data = await viewer.slideViewer(ctx, params.biz_id, query);
      return 'html' in data ? data.html : slidesPageHtml(data);
    }),
  );
  registerRoute(app, ctx, c.slidePreview, ({ params, query, reply }) =>
    servePage(reply, async () =>
      reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, max-age=3600')
        .send(await viewer.slidePreview(ctx, params.biz_id, params.n, query)),
    ),
  );
  registerRoute(app, ctx, c.slideDeckFile, ({ params, query, reply }) =>
    servePage(reply, async () => {
      const file = await viewer.deckFile(ctx, params.biz_id, query);
      if ('redirect' in file)
        return reply.code(302).header('location', file.redirect).header('cache-control', 'no-store').send();
      return reply
        .header('content-type', file.mime)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(file.data);
    }),
  );
}
