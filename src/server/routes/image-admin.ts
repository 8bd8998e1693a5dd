import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import {
  adminCreateKey,
  adminDeleteKey,
  adminFreezeKey,
  adminListKeys,
  adminUnfreezeKey,
  adminUsage,
} from '../../contract/image-admin.js';
import { registerRoute } from '../http/register.js';
import * as keys from '../services/keys.service.js';
import { usageReport } from '../services/usage.service.js';

export function imageAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, adminListKeys, ({ query }) => keys.listKeys(ctx, { userId: query.user_id }));
  registerRoute(app, ctx, adminCreateKey, ({ body }) =>
    keys.createKey(ctx, { userId: body.user_id, name: body.name, expiresInDays: body.expires_in_days }),
  );
  registerRoute(app, ctx, adminDeleteKey, ({ params }) => keys.deleteKey(ctx, params.key_id, null));
  registerRoute(app, ctx, adminFreezeKey, ({ params }) => keys.setFrozen(ctx, params.key_id, true));
  registerRoute(app, ctx, adminUnfreezeKey, ({ params }) => keys.setFrozen(ctx, params.key_id, false));
  registerRoute(app, ctx, adminUsage, ({ query }) =>
    usageReport(ctx, { apiKeyId: query.api_key_id, userId: query.user_id, taskId: query.task_id, limit: query.limit }),
  );
}
