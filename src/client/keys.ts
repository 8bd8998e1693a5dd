import type { createKey, deleteKey, listKeys, whoami } from '../contract/image-auth.js';
import { callRoute, routeRef } from './call.js';
import type { Transport } from './transport.js';

/**
 * The routes this client calls, by reference: `facet keys` and `facet whoami` (and status, with the
 * system client) then load no zod schema at all (see routeRef in call.ts).
 */
export const KEYS_ROUTES = {
  whoami: routeRef<typeof whoami>({
    id: 'auth.whoami',
    method: 'GET',
    path: '/auth/whoami',
    auth: 'token-or-key',
    family: 'image',
  }),
  listKeys: routeRef<typeof listKeys>({
    id: 'keys.list',
    method: 'GET',
    path: '/auth/api-keys',
    auth: 'access-token',
    family: 'image',
  }),
  createKey: routeRef<typeof createKey>({
    id: 'keys.create',
    method: 'POST',
    path: '/auth/api-keys',
    auth: 'access-token',
    family: 'image',
  }),
  deleteKey: routeRef<typeof deleteKey>({
    id: 'keys.delete',
    method: 'DELETE',
    path: '/auth/api-keys/{key_id}',
    auth: 'access-token',
    family: 'image',
  }),
};
const r = KEYS_ROUTES;

export const keysClient = (t: Transport) => ({
  whoami: () => callRoute(t, r.whoami),
  list: () => callRoute(t, r.listKeys),
  create: (body: { name?: string; expires_in_days?: number }) => callRoute(t, r.createKey, { body }),
  delete: (keyId: string) => callRoute(t, r.deleteKey, { params: { key_id: keyId } }),
});
