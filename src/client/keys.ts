import { createKey, deleteKey, listKeys, whoami } from '../contract/image-auth.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const keysClient = (t: Transport) => ({
  whoami: () => callRoute(t, whoami),
  list: () => callRoute(t, listKeys),
  create: (body: { name?: string; expires_in_days?: number }) => callRoute(t, createKey, { body }),
  delete: (keyId: string) => callRoute(t, deleteKey, { params: { key_id: keyId } }),
});
