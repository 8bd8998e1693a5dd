import { z } from 'zod';
import { trimmedText } from './fields.js';
import { defineRoute } from './route.js';
import { ImageErrorBody, IMAGE_ROUTE_ERRORS } from './errors.js';

export const ApiKeyStatus = z.enum(['active', 'frozen']);

/** API key metadata: never the full key (spec 2.2). */
export const ApiKeyInfo = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the first characters of the key, for recognising it'),
  user_id: z.string(),
  status: ApiKeyStatus,
  created_at: z.string(),
  expires_at: z.string().nullable(),
  frozen_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

export const CreatedApiKey = ApiKeyInfo.extend({
  key: z.string().describe('the full key; shown exactly once'),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const KeyName = trimmedText(100);
export const ExpiresInDays = z.number().int().min(1).max(3650);

export const CreateKeyRequest = z
  .object({ name: KeyName.optional(), expires_in_days: ExpiresInDays.optional() })
  .strict();

export const KeyIdParams = z.object({ key_id: z.string().min(1).max(100) });

const errors = IMAGE_ROUTE_ERRORS;

export const listKeys = defineRoute({
  id: 'keys.list',
  method: 'GET',
  path: '/auth/api-keys',
  auth: 'access-token',
  family: 'image',
  tag: 'auth',
  summary: "List the caller's API keys (metadata only)",
  responses: { 200: z.array(ApiKeyInfo), ...errors },
});

export const createKey = defineRoute({
  id: 'keys.create',
  method: 'POST',
  path: '/auth/api-keys',
  auth: 'access-token',
  family: 'image',
  tag: 'auth',
  summary: 'Create an API key; the full key is in this response only',
  body: CreateKeyRequest,
  responses: { 201: CreatedApiKey, 409: ImageErrorBody, ...errors },
});

export const deleteKey = defineRoute({
  id: 'keys.delete',
  method: 'DELETE',
  path: '/auth/api-keys/{key_id}',
  auth: 'access-token',
  family: 'image',
  tag: 'auth',
  summary: "Delete one of the caller's keys; it stops working at once",
  params: KeyIdParams,
  responses: { 204: null, 404: ImageErrorBody, ...errors },
});

export const createSessionCookie = defineRoute({
  id: 'session.create',
  method: 'POST',
  path: '/auth/session-cookie',
  auth: 'access-token',
  family: 'image',
  tag: 'auth',
  summary:
    'Start a browser session from the bearer access token: sets the facet_session cookie (a session of its own, not the token)',
  responses: { 204: null, 401: ImageErrorBody },
});

export const deleteSessionCookie = defineRoute({
  id: 'session.delete',
  method: 'DELETE',
  path: '/auth/session-cookie',
  auth: 'none',
  family: 'image',
  tag: 'auth',
  summary: 'Log out: end the session of the facet_session cookie sent, if any, and clear the cookie',
  responses: { 204: null },
});

export const Whoami = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    role: z.enum(['admin', 'user']),
    plan: z.enum(['free', 'paid']),
    credits: z.number(),
    created_at: z.string(),
  }),
  via: z.enum(['token', 'key', 'cookie']),
  api_key: ApiKeyInfo.nullable(),
});

/** The local platform's addition: who the given credentials belong to (see docs/decisions.md). */
export const whoami = defineRoute({
  id: 'auth.whoami',
  method: 'GET',
  path: '/auth/whoami',
  auth: 'token-or-key',
  family: 'image',
  tag: 'auth',
  summary: 'The user and key the credentials belong to',
  responses: { 200: Whoami, 401: ImageErrorBody, 403: ImageErrorBody },
});

export const imageAuthRoutes = [whoami, listKeys, createKey, deleteKey, createSessionCookie, deleteSessionCookie];
