import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { required } from '../context-required.js';
import { adminGetModel, adminHideModel, adminListModels, adminShowModel } from '../../contract/admin-models.js';
import type { ModelDirectory } from '../engines/gateway/directory.js';
import { HttpError } from '../errors.js';
import { registerRoute } from '../http/register.js';
import { adminModel } from '../services/model-api/catalog-view.js';

const unknownModel = (id: string) => new HttpError('NOT_FOUND', `The catalog has no model ${id}`);

export function adminModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  const directory = (): ModelDirectory => required(ctx.modelDirectory, 'the model directory');

  registerRoute(app, ctx, adminListModels, async () => ({ models: (await directory().all()).map(adminModel) }));
  registerRoute(app, ctx, adminGetModel, async ({ params }) => {
    const m = await directory().get(params.model_id);
    if (!m) throw unknownModel(params.model_id);
    return adminModel(m);
  });
  for (const [route, listed] of [[adminShowModel, true], [adminHideModel, false]] as const) {
    registerRoute(app, ctx, route, async ({ params, auth }) => {
      const m = await directory().setListed(params.model_id, listed, ctx.now().toISOString(), auth.user.id);
      if (!m) throw unknownModel(params.model_id);
      return adminModel(m);
    });
  }
}
