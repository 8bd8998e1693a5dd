import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { listImageModels } from '../../contract/image-models.js';
import { registerRoute } from '../http/register.js';
import { IMAGE_MODELS } from '../engines/image-models.js';

export function imageModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, listImageModels, () => ({ models: IMAGE_MODELS }));
}
