import { z } from 'zod';
import { textInt } from './fields.js';
import { defineRoute } from './route.js';
import { ImageErrorBody, IMAGE_ROUTE_ERRORS } from './errors.js';
import { ApiKeyInfo, CreatedApiKey, ExpiresInDays, KeyIdParams, KeyName } from './image-auth.js';

/** Keys are listed oldest first, a page at a time; the next page's cursor is in the answer's headers. */
export const AdminListKeysQuery = z.object({
  user_id: z.string().min(1).optional(),
  limit: textInt({ min: 1, max: 500, default: 100 }),
  cursor: z.string().min(1).max(200).optional().describe('X-Next-Cursor of the previous page'),
});

/** Response headers of a key listing page that has a next one. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

export const AdminCreateKeyRequest = z
  .object({ user_id: z.string().min(1), name: KeyName.optional(), expires_in_days: ExpiresInDays.optional() })
  .strict();

export const UsageQuery = z.object({
  api_key_id: z.string().min(1).optional(),
  user_id: z.string().min(1).optional(),
  task_id: z.string().min(1).optional(),
  limit: textInt({ min: 1, max: 500, default: 100 }),
});

/** Token and cost counters, the same for a key, a model within a key, and the totals. */
export const UsageCounters = z.object({
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  total_tokens: z.number().int(),
  web_searches: z.number().int(),
  cost_usd: z.number(),
});
export type UsageCounters = z.infer<typeof UsageCounters>;

export const UsageModelRow = UsageCounters.extend({ model: z.string() });

export const UsageKeyRow = UsageCounters.extend({
  api_key_id: z.string().nullable().describe('null for calls made with an access token, not a key'),
  key_name: z.string().nullable(),
  key_prefix: z.string().nullable(),
  user_id: z.string(),
  first_call_at: z.string(),
  last_call_at: z.string(),
  models: z.array(UsageModelRow),
});

export const UsageResponse = z.object({
  filters: z.object({
    api_key_id: z.string().nullable(),
    user_id: z.string().nullable(),
    task_id: z.string().nullable(),
    limit: z.number().int(),
  }),
  keys: z.array(UsageKeyRow),
  totals: UsageCounters,
});
export type UsageResponse = z.infer<typeof UsageResponse>;

const errors = IMAGE_ROUTE_ERRORS;

export const adminListKeys = defineRoute({
  id: 'admin.keys.list',
  method: 'GET',
  path: '/admin/api-keys',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary:
    'List the keys of every user, or of one with user_id, oldest first, `limit` at a time; when more follow, the X-Next-Cursor header holds the `cursor` of the next page and Link its URL (rel="next")',
  query: AdminListKeysQuery,
  responses: { 200: z.array(ApiKeyInfo), ...errors },
});

export const adminCreateKey = defineRoute({
  id: 'admin.keys.create',
  method: 'POST',
  path: '/admin/api-keys',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'Create a key for any user',
  body: AdminCreateKeyRequest,
  responses: { 201: CreatedApiKey, 404: ImageErrorBody, 409: ImageErrorBody, ...errors },
});

export const adminDeleteKey = defineRoute({
  id: 'admin.keys.delete',
  method: 'DELETE',
  path: '/admin/api-keys/{key_id}',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'Delete any key',
  params: KeyIdParams,
  responses: { 204: null, 404: ImageErrorBody, ...errors },
});

export const adminFreezeKey = defineRoute({
  id: 'admin.keys.freeze',
  method: 'POST',
  path: '/admin/api-keys/{key_id}/freeze',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'Freeze a key: every surface refuses it with 403 KEY_FROZEN until unfrozen',
  params: KeyIdParams,
  responses: { 200: ApiKeyInfo, 404: ImageErrorBody, ...errors },
});

export const adminUnfreezeKey = defineRoute({
  id: 'admin.keys.unfreeze',
  method: 'POST',
  path: '/admin/api-keys/{key_id}/unfreeze',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'Unfreeze a key',
  params: KeyIdParams,
  responses: { 200: ApiKeyInfo, 404: ImageErrorBody, ...errors },
});

export const adminUsage = defineRoute({
  id: 'admin.usage',
  method: 'GET',
  path: '/admin/api-key-usage',
  auth: 'admin-with-admin-key',
  family: 'image',
  tag: 'admin',
  summary: 'Model-call usage, cost and tokens per key, with a per-model breakdown and totals',
  query: UsageQuery,
  responses: { 200: UsageResponse, ...errors },
});

export const imageAdminRoutes = [
  adminListKeys,
  adminCreateKey,
  adminDeleteKey,
  adminFreezeKey,
  adminUnfreezeKey,
  adminUsage,
];
