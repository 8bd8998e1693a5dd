import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import {
  adminCreateKey,
  adminDeleteKey,
  adminFreezeKey,
  adminListKeys,
  adminUnfreezeKey,
  adminUsage,
  NEXT_CURSOR_HEADER,
} from '../../contract/image-admin.js';
import { registerRoute } from '../http/register.js';
import * as keys from '../services/keys.service.js';
import { usageReport } from '../services/usage.service.js';

export function imageAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, adminListKeys, async ({ query, reply }) => {
    const page = await keys.listKeysPage(ctx, { userId: query.user_id, limit: query.limit, cursor: query.cursor });
    if (page.nextCursor) {
      const next = new URLSearchParams({ ...(query.user_id ? { user_id: query.user_id } : {}), limit: String(query.limit), cursor: page.nextCursor });
      reply.header(NEXT_CURSOR_HEADER, page.nextCursor).header('link', `<${ctx.baseUrl}/admin/api-keys?${next}>; rel="next"`);
    }
    return page.keys;
  });
  registerRoute(app, ctx, adminCreateKey, ({ body }) =>
    keys.createKey(ctx, { userId: body.user_id, name: body.name, expiresInDays: body.expires_in_days, maxKeys: ctx.config.maxKeysPerUser }),
  );
  registerRoute(app, ctx, adminDeleteKey, ({ params }) => keys.deleteKey(ctx, params.key_id, null));
  registerRoute(app, ctx, adminFreezeKey, ({ params }) => keys.setFrozen(ctx, params.key_id, true));
  registerRoute(app, ctx, adminUnfreezeKey, ({ params }) => keys.setFrozen(ctx, params.key_id, false));
  registerRoute(app, ctx, adminUsage, ({ query }) =>
    usageReport(ctx, { apiKeyId: query.api_key_id, userId: query.user_id, taskId: query.task_id, limit: query.limit }),
  );
}
