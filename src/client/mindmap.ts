import type { z } from 'zod';
import { createMindmap, type MindmapRequest } from '../contract/mindmap.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const mindmapClient = (t: Transport) => ({
  /** POST /v2/mindmap: synchronous; the mindmap result of spec 2.8 (svg and a signed page URL). */
  create: (body: z.input<typeof MindmapRequest>) => callRoute(t, createMindmap, { body }),
});
