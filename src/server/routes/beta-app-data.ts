import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { appLocations } from '../../contract/beta-app-data.js';
import { registerRoute } from '../http/register.js';
import * as service from '../services/beta-app-data.service.js';

export function betaAppDataRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, appLocations, ({ params, request }) =>
    service.appLocations(params.app_store, request.url.split('?')[0]),
  );
}
