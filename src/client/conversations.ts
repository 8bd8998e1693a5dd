import * as c from '../contract/conversations.js';
import { buildPath } from '../contract/route.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';
import { streamEvents, type StreamOptions } from './sse.js';

export const conversationsClient = (t: Transport) => ({
  start: (body: {
    query: string;
    live_doc_short_id?: string;
    selected_resource_ids?: string[];
    include_generated?: boolean;
  }) => callRoute(t, c.createConversation, { body }),
  followUp: (threadId: string, query: string, includeGenerated = false) =>
    callRoute(t, c.followUp, {
      params: { thread_short_id: threadId },
      body: includeGenerated ? { query, include_generated: true } : { query },
    }),
  list: (query: { live_doc_short_id?: string; page?: number; size?: number } = {}) =>
    callRoute(t, c.listConversations, { query }),
  get: (threadId: string) => callRoute(t, c.getConversation, { params: { thread_short_id: threadId } }),
  /** The answer's events from `offset`, resuming by itself after a dropped connection. */
  stream: (streamKey: string, options: Omit<StreamOptions, 'url' | 'headers'> = {}) =>
    streamEvents({
      ...options,
      url: t.options.baseUrl.replace(/\/+$/, '') + buildPath(c.streamConversation.path, { stream_key: streamKey }),
      headers: t.headersFor(c.streamConversation.auth),
      request: t.options.request,
    }),
});
