import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { ownUsage } from '../../contract/own-usage.js';
import { registerRoute } from '../http/register.js';
import { usageReport } from '../services/usage.service.js';

export function ownUsageRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, ownUsage, ({ auth, query }) =>
    usageReport(ctx, { userId: auth.user.id, taskId: query.task_id, limit: query.limit }),
  );
}
