import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { reviewTaskCallbacks, reviewTaskGet, reviewTaskPost, reviewTasksReady } from '../../contract/beta-reviews.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/beta-reviews.service.js';

export function betaReviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const path = (url: string) => url.split('?')[0];
  registerRoute(app, ctx, reviewTaskPost, ({ auth, params, body, request }) =>
    service.postReviewTasks(ctx, auth, params.platform, path(request.url), body),
  );
  registerRoute(app, ctx, reviewTasksReady, ({ auth, params, request }) =>
    service.readyReviewTasks(ctx, auth, params.platform, path(request.url)),
  );
  registerRoute(app, ctx, reviewTaskGet, ({ auth, params, request }) =>
    service.getReviewTask(ctx, auth, params.platform, params.id, path(request.url)),
  );
  registerRoute(app, ctx, reviewTaskCallbacks, ({ auth, params, request }) =>
    service.reviewTaskCallbacks(ctx, auth, params.platform, params.id, path(request.url)),
  );
}
