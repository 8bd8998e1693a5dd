import { z } from 'zod';
import { defineRoute } from './route.js';
import { ImageErrorBody, IMAGE_ROUTE_ERRORS } from './errors.js';
import { ModelDetail, ModelIdParams } from './model-api-models.js';

/** A catalog entry as an administrator sees it: the public detail plus the flags that decide discovery. */
export const AdminModel = ModelDetail.extend({
  api: z.enum(['local', 'openai', 'anthropic', 'none']),
  enabled: z.boolean(),
  listed: z.boolean(),
  deleted: z.boolean(),
  priced: z.boolean(),
  /** enabled, listed, not deleted and priced: what callers can discover and call. */
  offered: z.boolean(),
});
export type AdminModel = z.infer<typeof AdminModel>;

export const AdminModelList = z.object({ models: z.array(AdminModel) });

const errors = { ...IMAGE_ROUTE_ERRORS, 404: ImageErrorBody } as const;

export const adminListModels = defineRoute({
  id: 'admin.models.list',
  method: 'GET',
  path: '/admin/models',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'Every catalog model with its enabled, listed, deleted and offered flags',
  responses: { 200: AdminModelList, ...errors },
});

export const adminGetModel = defineRoute({
  id: 'admin.models.get',
  method: 'GET',
  path: '/admin/models/{model_id}',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'One catalog model, listed or not',
  params: ModelIdParams,
  responses: { 200: AdminModel, ...errors },
});

export const adminShowModel = defineRoute({
  id: 'admin.models.show',
  method: 'POST',
  path: '/admin/models/{model_id}/show',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'List a model: callers can discover and call it (if enabled, priced and not deleted)',
  params: ModelIdParams,
  responses: { 200: AdminModel, ...errors },
});

export const adminHideModel = defineRoute({
  id: 'admin.models.hide',
  method: 'POST',
  path: '/admin/models/{model_id}/hide',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary: 'Hide a model from discovery and calls',
  params: ModelIdParams,
  responses: { 200: AdminModel, ...errors },
});

export const adminModelRoutes = [adminListModels, adminGetModel, adminShowModel, adminHideModel];
