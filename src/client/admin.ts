import {
  adminCreateKey,
  adminDeleteKey,
  adminFreezeKey,
  adminListKeys,
  adminUnfreezeKey,
  adminUsage,
  NEXT_CURSOR_HEADER,
} from '../contract/image-admin.js';
import { callRoute, callRouteWithHeaders } from './call.js';
import type { Transport } from './transport.js';

export const adminClient = (t: Transport) => ({
  /** One page of keys and the cursor of the next one (null on the last page). */
  listKeys: async (query: { user_id?: string; limit?: number; cursor?: string } = {}) => {
    const { body, headers } = await callRouteWithHeaders(t, adminListKeys, { query });
    const next = headers[NEXT_CURSOR_HEADER];
    return { keys: body, nextCursor: typeof next === 'string' && next ? next : null };
  },
  createKey: (body: { user_id: string; name?: string; expires_in_days?: number }) =>
    callRoute(t, adminCreateKey, { body }),
  deleteKey: (keyId: string) => callRoute(t, adminDeleteKey, { params: { key_id: keyId } }),
  freeze: (keyId: string) => callRoute(t, adminFreezeKey, { params: { key_id: keyId } }),
  unfreeze: (keyId: string) => callRoute(t, adminUnfreezeKey, { params: { key_id: keyId } }),
  usage: (query: { api_key_id?: string; user_id?: string; task_id?: string; limit?: number }) =>
    callRoute(t, adminUsage, { query }),
});
