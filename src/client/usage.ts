import { ownUsage } from '../contract/own-usage.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const usageClient = (t: Transport) => ({
  /** GET /auth/usage: the caller's own model-call usage, per key and model. */
  own: (query: { task_id?: string; limit?: number } = {}) => callRoute(t, ownUsage, { query }),
});
