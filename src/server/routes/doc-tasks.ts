import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/doc-tasks.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/doc-tasks.service.js';
import { asQueryFailure } from '../services/doc-task-errors.js';

export function docTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, c.getTaskStatus, ({ auth, params }) =>
    asQueryFailure(() => service.taskStatus(ctx, auth, params.task_id)),
  );
  registerRoute(app, ctx, c.getTaskHistorical, ({ auth, params }) =>
    asQueryFailure(() => service.taskHistorical(ctx, auth, params.task_id)),
  );
  registerRoute(app, ctx, c.cancelTask, ({ auth, params }) => service.cancelTask(ctx, auth, params.task_id));
  registerRoute(app, ctx, c.retryTask, ({ auth, params }) => service.retryTask(ctx, auth, params.task_id));
}
