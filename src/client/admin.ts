import {
  adminCreateKey,
  adminDeleteKey,
  adminFreezeKey,
  adminListKeys,
  adminUnfreezeKey,
  adminUsage,
} from '../contract/image-admin.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const adminClient = (t: Transport) => ({
  listKeys: (userId?: string) => callRoute(t, adminListKeys, { query: { user_id: userId } }),
  createKey: (body: { user_id: string; name?: string; expires_in_days?: number }) => callRoute(t, adminCreateKey, { body }),
  deleteKey: (keyId: string) => callRoute(t, adminDeleteKey, { params: { key_id: keyId } }),
  freeze: (keyId: string) => callRoute(t, adminFreezeKey, { params: { key_id: keyId } }),
  unfreeze: (keyId: string) => callRoute(t, adminUnfreezeKey, { params: { key_id: keyId } }),
  usage: (query: { api_key_id?: string; user_id?: string; task_id?: string; limit?: number }) => callRoute(t, adminUsage, { query }),
});
