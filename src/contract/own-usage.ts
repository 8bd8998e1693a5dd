import { z } from 'zod';
import { textInt } from './fields.js';
import { defineRoute } from './route.js';
import { IMAGE_ROUTE_ERRORS } from './errors.js';
import { UsageResponse } from './image-admin.js';

/** The caller's own model-call usage: what /admin/api-key-usage reports, for their user only. */
export const OwnUsageQuery = z.object({
  task_id: z.string().min(1).optional(),
  limit: textInt({ min: 1, max: 500, default: 100 }).describe('keys reported, most expensive first'),
});

/** The local platform's addition (docs/decisions.md "facet for agents"): usage_summary reads it. */
export const ownUsage = defineRoute({
  id: 'auth.usage',
  method: 'GET',
  path: '/auth/usage',
  auth: 'token-or-key',
  family: 'image',
  tag: 'auth',
  summary:
    'Your own model-call usage: calls, tokens and cost per key of yours, per model, and in total (as GET /admin/api-key-usage for your user)',
  query: OwnUsageQuery,
  responses: { 200: UsageResponse, ...IMAGE_ROUTE_ERRORS },
});

export const ownUsageRoutes = [ownUsage];
