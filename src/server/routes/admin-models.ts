import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { adminGetModel, adminHideModel, adminListModels, adminShowModel } from '../../contract/admin-models.js';
import { HttpError } from '../errors.js';
import { registerRoute } from '../http/register.js';
import { adminModel } from '../services/model-api/catalog-view.js';
import { actorOf } from '../http/audit-actor.js';
import { recordAudit } from '../services/audit.service.js';

const unknownModel = (id: string) => new HttpError('NOT_FOUND', `The catalog has no model ${id}`);

export function adminModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, adminListModels, async () => ({ models: (await ctx.modelDirectory.all()).map(adminModel) }));
  registerRoute(app, ctx, adminGetModel, async ({ params }) => {
    const m = await ctx.modelDirectory.get(params.model_id);
    if (!m) throw unknownModel(params.model_id);
    return adminModel(m);
  });
  for (const [route, listed] of [
    [adminShowModel, true],
    [adminHideModel, false],
  ] as const) {
    registerRoute(app, ctx, route, async ({ params, auth, request }) => {
      const before = await ctx.modelDirectory.get(params.model_id);
      const m = await ctx.modelDirectory.setListed(params.model_id, listed, ctx.now().toISOString(), auth.user.id);
      if (!m) throw unknownModel(params.model_id);
      // The listing lives behind the model directory's own cache: the entry follows its commit.
      await recordAudit(ctx, actorOf(request, auth), {
        action: listed ? 'model.shown' : 'model.hidden',
        targetType: 'model',
        targetId: params.model_id,
        before: { listed: before?.listed ?? null },
        after: { listed: m.listed },
      });
      return adminModel(m);
    });
  }
}
