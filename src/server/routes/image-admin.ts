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
import { actorOf } from '../http/audit-actor.js';
import { recordAudit } from '../services/audit.service.js';

export function imageAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, adminListKeys, async ({ query, reply }) => {
    const page = await keys.listKeysPage(ctx, { userId: query.user_id, limit: query.limit, cursor: query.cursor });
    if (page.nextCursor) {
      const next = new URLSearchParams({
        ...(query.user_id ? { user_id: query.user_id } : {}),
        limit: String(query.limit),
        cursor: page.nextCursor,
      });
      reply
        .header(NEXT_CURSOR_HEADER, page.nextCursor)
        .header('link', `<${ctx.baseUrl}/admin/api-keys?${next}>; rel="next"`);
    }
    return page.keys;
  });
  registerRoute(app, ctx, adminCreateKey, ({ body, auth, request }) =>
    keys.createKey(
      ctx,
      {
        userId: body.user_id,
        name: body.name,
        expiresInDays: body.expires_in_days,
        maxKeys: ctx.config.maxKeysPerUser,
      },
      actorOf(request, auth),
    ),
  );
  registerRoute(app, ctx, adminDeleteKey, ({ params, auth, request }) =>
    keys.deleteKey(ctx, params.key_id, null, actorOf(request, auth)),
  );
  registerRoute(app, ctx, adminFreezeKey, ({ params, auth, request }) =>
    keys.setFrozen(ctx, params.key_id, true, actorOf(request, auth)),
  );
  registerRoute(app, ctx, adminUnfreezeKey, ({ params, auth, request }) =>
    keys.setFrozen(ctx, params.key_id, false, actorOf(request, auth)),
  );
  registerRoute(app, ctx, adminUsage, async ({ query, auth, request }) => {
    // The deployment admin key is a credential of its own: each use is recorded (never the key).
    await recordAudit(ctx, actorOf(request, auth), {
      action: 'admin_key.used',
      targetType: 'endpoint',
      targetId: adminUsage.path,
    });
    return usageReport(ctx, {
      apiKeyId: query.api_key_id,
      userId: query.user_id,
      taskId: query.task_id,
      limit: query.limit,
    });
  });
}
