import type { z } from 'zod';
import { webExtract, type WebExtractRequest } from '../contract/web.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const webClient = (t: Transport) => ({
  /** POST /v2/web/extract: one page, the data of spec 2.12. */
  extract: (body: z.input<typeof WebExtractRequest>, wait: { timeoutMs?: number; serverLimitMs?: number } = {}) =>
    callRoute(t, webExtract, { body, ...wait }),
});
export type { WebExtractRequest };
