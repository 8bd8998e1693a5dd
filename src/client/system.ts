import type { healthz } from '../contract/system.js';
import { callRoute, routeRef } from './call.js';
import type { Transport } from './transport.js';

/** The routes this client calls, by reference (routeRef in call.ts): `facet status` loads no zod. */
export const SYSTEM_ROUTES = {
  healthz: routeRef<typeof healthz>({
    id: 'system.health',
    method: 'GET',
    path: '/healthz',
    auth: 'none',
    family: 'image',
  }),
};

export const systemClient = (t: Transport) => ({
  /** GET /healthz: the platform's status, version and uptime; needs no credentials. */
  health: () => callRoute(t, SYSTEM_ROUTES.healthz),
});
